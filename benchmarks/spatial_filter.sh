#!/usr/bin/env bash
# A spatial FILTER against a constant polygon, with and without the spatial
# index (docs/geosparql.md): N random CRS84 points, a 2x2-degree square. The
# indexed form names the polygon in the filter, which the planner narrows
# through the index; the scanned form passes it through VALUES, which the
# planner cannot read, so every point is tested. Same rows both ways.
#
#   benchmarks/spatial_filter.sh [BUILD_DIR] [POINTS] > benchmarks/results/spatial-filter-<machine>.txt
set -euo pipefail
build=${1:-build/default}
points=${2:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$points" > "$work/points.nt" <<'PY'
import random, sys
random.seed(1)
for i in range(int(sys.argv[1])):
    x, y = random.uniform(-180, 180), random.uniform(-90, 90)
    print(f'<http://e/p{i}> <http://www.opengis.net/ont/geosparql#asWKT> "POINT({x:.6f} {y:.6f})"'
          f'^^<http://www.opengis.net/ont/geosparql#wktLiteral> .')
    print(f'<http://e/p{i}> <http://e/n> "{i}"^^<http://www.w3.org/2001/XMLSchema#integer> .')
PY
"$build/cli/gsparql" load --db "$work/db" "$work/points.nt"
mkdir "$work/q"
prefixes='PREFIX geo: <http://www.opengis.net/ont/geosparql#> PREFIX geof: <http://www.opengis.net/def/function/geosparql/>'
square='"POLYGON((10 10, 12 10, 12 12, 10 12, 10 10))"^^geo:wktLiteral'
echo "$prefixes SELECT ?s ?n WHERE { ?s geo:asWKT ?w . ?s <http://e/n> ?n FILTER(geof:sfWithin(?w, $square)) }" > "$work/q/indexed.rq"
echo "$prefixes SELECT ?s ?n WHERE { VALUES ?a { $square } ?s geo:asWKT ?w . ?s <http://e/n> ?n FILTER(geof:sfWithin(?w, ?a)) }" > "$work/q/scanned.rq"
for q in indexed scanned; do
  echo "== $q: first run in a fresh process (the indexed form builds the index while planning)"
  "$build/cli/gsparql" query --db "$work/db" --backend cpu --time -f "$work/q/$q.rq" | wc -l | sed 's/^/lines of output (header included): /'
done
echo "== warm: gsparql bench, 5 runs after a warm-up"
"$build/cli/gsparql" bench --db "$work/db" --queries "$work/q" --backend cpu --repeat 5
