#!/usr/bin/env bash
# On the GPU machine: the GPU tests (among them COUNT(DISTINCT ?v) of every
# variable of every WatDiv SF1 query against the CPU executor, also in 256 KB),
# while WatDiv SF100 is generated and loaded; then COUNT(DISTINCT ?v) over
# BGPs marked where the rows are against counting enumerated rows, on both
# executors (benchmarks/count_bench.sh with benchmarks/queries/distinct_counts).
# Carry .carry/gsparql (scripts/package-portable.sh; or its gsparql, gpu_tests
# and lib/ alone in .carry/$CARRIED) and .carry/watdiv-tool
# (../shared/tools/watdiv). Output under $OUT.
#   scripts/gpu-distinct-run.sh [REPEAT] [ENUMERATION_TIMEOUT_S]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bin=$PWD/.carry/${CARRIED:-gsparql}
{ nproc; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } | tee "$OUT/machine.txt"
if [ -z "${NO_TESTS:-}" ]; then
  GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators "$bin/gpu_tests" \
    > "$OUT/gpu_tests.txt" 2>&1 &
fi
if [ ! -d /tmp/sf100 ]; then  # kept while the machine stays warm
  .carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
  "$bin/gsparql" load --quiet --db /tmp/sf100 /tmp/sf100.nt
fi
wait
[ -f "$OUT/gpu_tests.txt" ] && tail -4 "$OUT/gpu_tests.txt"
GSPARQL=$bin/gsparql QUERIES=benchmarks/queries/distinct_counts benchmarks/count_bench.sh /tmp/sf100 "${1:-3}" "cpu gpu" \
  "${2:-60}" | tee "$OUT/distinct_counts_sf100.csv"
