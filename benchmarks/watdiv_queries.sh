#!/usr/bin/env bash
# Query benchmark: gsparql (CPU backend) and Oxigraph (npm, in memory) on the
# same WatDiv query set, on this machine, in one run.
#   benchmarks/watdiv_queries.sh [SCALE] [REPEAT]      (default: 100 3)
# Needs build/default (scripts/test.sh builds it) and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
scale=${1:-100}
repeat=${2:-3}
gsparql=build/default/cli/gsparql
data=../shared/datasets/watdiv
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-query-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

print_run_header "WatDiv SF$scale; $repeat timed runs per query after one warm-up; all rows decoded"
"$gsparql" load --quiet --db "$work/db" "$data/sf$scale.nt.zst"
echo "## $gsparql bench --db DB --queries $data/queries/sf$scale --repeat $repeat --backend cpu"
"$gsparql" bench --db "$work/db" --queries "$data/queries/sf$scale" --repeat "$repeat" --backend cpu | tee "$work/gsparql.csv"
(cd benchmarks/oxigraph && npm install --no-audit --no-fund --silent)
echo "## node benchmarks/oxigraph/bench.mjs $data/sf$scale.nt.zst $data/queries/sf$scale $repeat"
node benchmarks/oxigraph/bench.mjs "$data/sf$scale.nt.zst" "$data/queries/sf$scale" "$repeat" 2>&1 | tee "$work/oxigraph.csv"
echo "## comparison"
benchmarks/compare_bench.py "$work/gsparql.csv" "$work/oxigraph.csv" "$data/expected/sf$scale/expected.tsv" oxigraph
