#!/usr/bin/env bash
# On the GPU machine: the GPU tests (GPU executor against the CPU executor),
# then the latency of small updates on WatDiv SF100 generated there.
# Carry .carry/gsparql (scripts/package-portable.sh) and .carry/watdiv-tool
# (../shared/tools/watdiv). Output under $OUT.
#   scripts/gpu-update-run.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bin=$PWD/.carry/gsparql
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
echo "== GPU tests"
GSPARQL_TEST_DATA=tests/data "$bin/gpu_tests" > "$OUT/gpu_tests.log" 2>&1
echo "gpu_tests exit $?"
tail -3 "$OUT/gpu_tests.log"
echo "== WatDiv SF100 generated"
.carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
wc -l /tmp/sf100.nt
echo "== update latency on SF100"
benchmarks/update_latency.sh "$bin/gsparql" /tmp/sf100.nt /tmp/ul100 | tee "$OUT/update_latency_sf100.txt"
