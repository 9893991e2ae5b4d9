#!/usr/bin/env bash
# Query benchmark: gsparql (CPU backend) and Oxigraph (npm, in memory) on the
# same WatDiv data and query set, on this machine, in one run.
#   benchmarks/watdiv_queries.sh [SCALE] [REPEAT] [QUERY_FOLDER]   (default: 100 3, WatDiv's queries)
# With QUERY_FOLDER (e.g. benchmarks/queries/operators) the two engines' row
# counts are compared with each other, and gsparql's --explain of every query
# (operator tree, estimated and actual rows, times) is printed at the end.
# With GSPARQL_BEFORE=path/to/another/gsparql, that binary is benchmarked on
# the same database in the same run and compared (before/after a change).
# Needs build/default (scripts/test.sh builds it) and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
scale=${1:-100}
repeat=${2:-3}
gsparql=build/default/cli/gsparql
data=../shared/datasets/watdiv
queries=${3:-$data/queries/sf$scale}
expected=$data/expected/sf$scale/expected.tsv
[ -n "${3:-}" ] && expected=-
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-query-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

print_run_header "WatDiv SF$scale, queries $queries; $repeat timed runs per query after one warm-up; all rows decoded"
"$gsparql" load --quiet --db "$work/db" "$data/sf$scale.nt.zst"
echo "## $gsparql bench --db DB --queries $queries --repeat $repeat --backend cpu"
"$gsparql" bench --db "$work/db" --queries "$queries" --repeat "$repeat" --backend cpu | tee "$work/gsparql.csv"
if [ -n "${GSPARQL_BEFORE:-}" ]; then
  echo "## $GSPARQL_BEFORE bench --db DB --queries $queries --repeat $repeat --backend cpu"
  "$GSPARQL_BEFORE" bench --db "$work/db" --queries "$queries" --repeat "$repeat" --backend cpu | tee "$work/before.csv"
  echo "## comparison: this build (gsparql) against GSPARQL_BEFORE (before)"
  benchmarks/compare_bench.py "$work/gsparql.csv" "$work/before.csv" "$expected" before
fi
(cd benchmarks/oxigraph && npm install --no-audit --no-fund --silent)
echo "## node benchmarks/oxigraph/bench.mjs $data/sf$scale.nt.zst $queries $repeat"
node benchmarks/oxigraph/bench.mjs "$data/sf$scale.nt.zst" "$queries" "$repeat" 2>&1 | tee "$work/oxigraph.csv"
echo "## comparison"
benchmarks/compare_bench.py "$work/gsparql.csv" "$work/oxigraph.csv" "$expected" oxigraph
if [ -n "${3:-}" ]; then
  for q in "$queries"/*.rq; do
    echo "## $gsparql query --db DB -f $q --backend cpu --explain --time > /dev/null"
    "$gsparql" query --db "$work/db" -f "$q" --backend cpu --explain --time 2>&1 > /dev/null
  done
fi
