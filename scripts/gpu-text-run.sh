#!/usr/bin/env bash
# Text search on the GPU machine (issue 43), in one call: the GPU tests of
# text searches joined with BGPs (TESTS: a doctest filter, default the text
# and operator tests; all: every GPU test), then benchmarks/text_search.sh on
# WatDiv SF100 generated here, the CPU and GPU executors interleaved.
# Carry .carry/gsparql-serve.txz (scripts/package-portable.sh: gsparql,
# gpu_tests, lib/) and .carry/watdiv-tool (../shared/tools/watdiv). Output under $OUT.
#   scripts/gpu-text-run.sh [SCALE] [REPEAT]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
scale=${1:-100} repeat=${2:-5}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
tests=${TESTS:-*text search*,*operator queries*}
filter=()
[ "$tests" = all ] || filter=("-tc=$tests")
export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators
{ time timeout "${TEST_SECONDS:-300}" .carry/gsparql/gpu_tests "${filter[@]}"; } > "$OUT/gpu-tests.txt" 2>&1
tail -5 "$OUT/gpu-tests.txt"

wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/sf$scale.nt"
echo "generate SF$scale: $((SECONDS - t)) s" | tee "$OUT/generate.txt"
WORK=/tmp/text-search benchmarks/text_search.sh "/tmp/sf$scale.nt" http://purl.org/stuff/rev#text \
  '?s <http://purl.org/stuff/rev#reviewer> ?x .' "$repeat" cpu,gpu > "$OUT/text-search-watdiv-sf$scale.txt" 2>&1
grep -E "^# load|^# text index|geometric|^backend" "$OUT/text-search-watdiv-sf$scale.txt"
