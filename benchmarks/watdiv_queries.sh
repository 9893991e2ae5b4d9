#!/usr/bin/env bash
# Query benchmark: gsparql (CPU backend) and Oxigraph (npm, in memory) on the
# same WatDiv query set, on this machine, in one run.
#   benchmarks/watdiv_queries.sh [SCALE] [REPEAT]      (default: 100 3)
# Needs build/default (scripts/test.sh builds it) and ../shared.
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-100}
repeat=${2:-3}
gsparql=build/default/cli/gsparql
data=../shared/datasets/watdiv
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-query-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "# machine: $(uname -n), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# commit: $(git rev-parse --short HEAD) $(git diff --quiet || echo '(with local changes)')"
echo "# date: $(date -u +%FT%TZ); WatDiv SF$scale; $repeat timed runs per query after one warm-up; all rows decoded"
"$gsparql" load --quiet --db "$work/db" "$data/sf$scale.nt.zst"
echo "## $gsparql bench --db DB --queries $data/queries/sf$scale --repeat $repeat --backend cpu"
"$gsparql" bench --db "$work/db" --queries "$data/queries/sf$scale" --repeat "$repeat" --backend cpu | tee "$work/gsparql.csv"
(cd benchmarks/oxigraph && npm install --no-audit --no-fund --silent)
echo "## node benchmarks/oxigraph/bench.mjs $data/sf$scale.nt.zst $data/queries/sf$scale $repeat"
node benchmarks/oxigraph/bench.mjs "$data/sf$scale.nt.zst" "$data/queries/sf$scale" "$repeat" 2>&1 | tee "$work/oxigraph.csv"
echo "## comparison"
benchmarks/compare_bench.py "$work/gsparql.csv" "$work/oxigraph.csv" "$data/expected/sf$scale/expected.tsv" oxigraph
