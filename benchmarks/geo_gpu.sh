#!/usr/bin/env bash
# The spatial join of points and polygons with its points located on the
# GPU (--backend gpu: Executor::pointLocator) against GEOS's prepared
# predicates on the CPU (--backend cpu), on the GPU machine. Data: the 220
# countries and 135,233 cities of benchmarks/geo_postgis_data.mjs (its
# data.nt, made where npm is: node benchmarks/geo_postgis_data.mjs DIR) and
# RANDOM_POINTS more points, uniform over longitudes -180..180 and latitudes
# -60..75 (seeded), and 48,600 octagons (below). The queries, each answered
# on both backends and their rows compared, then timed warm in interleaved
# rounds (gsparql bench):
#   a_within       the cities within Germany's polygon
#   c_join         the cities within each country, counted
#   d_join_random  the random points within each country, counted
#   e_intersects   the random points that meet Brazil's polygon
#   f_constant     the random points within a constant polygon (a FILTER;
#                  planned as a join with the constant: more than 4,096
#                  literals meet its envelope)
#   g_constant_filter  the same filter written `|| false`, which the planner
#                  does not read: the function on every row, as before
#   h_cells        the random points within each of 48,600 octagons, one
#                  inscribed in each 1-degree cell of the same longitudes
#                  and latitudes, counted (many polygons: the GPU finds
#                  them through a grid, geo/shape_grid.h)
# Results: header.txt, rows.txt, plans.txt, rounds.txt.
#
#   benchmarks/geo_gpu.sh GSPARQL DATA_NT [ROUNDS] [RESULTS_DIR] [RANDOM_POINTS]
set -euo pipefail
gsparql=$(realpath "$1")
data=$(realpath "$2")
rounds=${3:-5}
results=${4:-benchmarks/results/geo-gpu-$(date -u +%F)}
random_points=${5:-2000000}
source benchmarks/run_header.sh
source benchmarks/compare_rows.sh
mkdir -p "$results"
results=$(realpath "$results")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$random_points" > "$work/random.nt" <<'PY'
import random, sys
random.seed(1)
for i in range(int(sys.argv[1])):
    s = f"<http://e/r/{i}>"
    print(f"{s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://e/RandomPoint> .")
    x, y = random.uniform(-180, 180), random.uniform(-60, 75)
    print(f'{s} <http://www.opengis.net/ont/geosparql#asWKT> "POINT({x:.6f} {y:.6f})"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .')
for x in range(-180, 180):
    for y in range(-60, 75):
        s = f"<http://e/cell/{x}/{y}>"
        corners = [(.3, 0), (.7, 0), (1, .3), (1, .7), (.7, 1), (.3, 1), (0, .7), (0, .3), (.3, 0)]
        ring = ", ".join(f"{x + dx:g} {y + dy:g}" for dx, dy in corners)
        print(f"{s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://e/Cell> .")
        print(f'{s} <http://www.opengis.net/ont/geosparql#asWKT> "POLYGON(({ring}))"^^<http://www.opengis.net/ont/geosparql#wktLiteral> .')
PY
"$gsparql" load --db "$work/db" "$data" "$work/random.nt" > /dev/null

mkdir "$work/q"
prefixes='PREFIX geo: <http://www.opengis.net/ont/geosparql#> PREFIX geof: <http://www.opengis.net/def/function/geosparql/>'
echo "$prefixes SELECT ?c WHERE { <http://e/country/DEU> geo:asWKT ?p . ?c a <http://e/City> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) }" > "$work/q/a_within.rq"
echo "$prefixes SELECT ?code (COUNT(?c) AS ?n) WHERE { ?k <http://e/code> ?code ; geo:asWKT ?p . ?c a <http://e/City> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) } GROUP BY ?code" > "$work/q/c_join.rq"
echo "$prefixes SELECT ?code (COUNT(?c) AS ?n) WHERE { ?k <http://e/code> ?code ; geo:asWKT ?p . ?c a <http://e/RandomPoint> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) } GROUP BY ?code" > "$work/q/d_join_random.rq"
echo "$prefixes SELECT ?c WHERE { <http://e/country/BRA> geo:asWKT ?p . ?c a <http://e/RandomPoint> ; geo:asWKT ?w FILTER(geof:sfIntersects(?p, ?w)) }" > "$work/q/e_intersects.rq"
area='"POLYGON((-20 -40, 60 -40, 60 70, 20 60, -20 70, -20 -40))"^^geo:wktLiteral'
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/RandomPoint> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, $area)) }" > "$work/q/f_constant.rq"
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/RandomPoint> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, $area) || false) }" > "$work/q/g_constant_filter.rq"
echo "$prefixes SELECT ?k (COUNT(?c) AS ?n) WHERE { ?k a <http://e/Cell> ; geo:asWKT ?p . ?c a <http://e/RandomPoint> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) } GROUP BY ?k" > "$work/q/h_cells.rq"

{
  print_run_header "rounds: $rounds; gsparql bench --repeat 3 (after its warm-up), --backend cpu then gpu each round; $random_points random points"
  echo "# nproc: $(nproc)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed 's/^/# gpu: /'
  for q in "$work"/q/*.rq; do echo "# query $(basename "$q"): $(cat "$q")"; done
} > "$results/header.txt"

{
  for q in "$work"/q/*.rq; do
    name=$(basename "$q" .rq)
    for backend in cpu gpu; do
      "$gsparql" query --db "$work/db" --backend $backend --format csv -f "$q" | tail -n +2 | sort > "$work/$name.$backend"
    done
    compare_rows "$name" cpu "$work/$name.cpu" gpu "$work/$name.gpu"
  done
} | tee "$results/rows.txt"

for q in "$work"/q/*.rq; do
  for backend in cpu gpu; do
    echo "== $(basename "$q" .rq): --backend $backend --explain"
    "$gsparql" query --db "$work/db" --backend $backend --explain -f "$q" 2>&1 > /dev/null
  done
done > "$results/plans.txt"

for round in $(seq "$rounds"); do
  for backend in cpu gpu; do
    echo "== round $round: $backend"
    "$gsparql" bench --db "$work/db" --queries "$work/q" --backend $backend --repeat 3
  done
done 2>&1 | tee "$results/rounds.txt"
