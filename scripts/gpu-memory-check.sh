#!/usr/bin/env bash
# On the GPU machine: every WatDiv SF10 query on the GPU with 4 MB of device
# memory, and every SF100 query with 64 MB, against the reference answers
# (benchmarks/check_watdiv.sh). The data is generated there (byte-identical to
# ../shared/datasets/watdiv/sfN.nt.zst).
# Carry .carry/gsparql (scripts/package-portable.sh), .carry/watdiv-tool
# (../shared/tools/watdiv) and .carry/watdiv-check (queries/ and expected/ of
# ../shared/datasets/watdiv for sf10 and sf100). Output under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/check/watdiv
bin=$PWD/.carry/gsparql/gsparql
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
ln -sfn "$PWD/.carry/watdiv-check/queries" /tmp/check/watdiv/queries
ln -sfn "$PWD/.carry/watdiv-check/expected" /tmp/check/watdiv/expected
for run in "10 4M" "100 64M"; do
  read -r scale memory <<<"$run"
  rm -rf "/tmp/check/db$scale"
  .carry/watdiv-tool/generate.sh data "$scale" | "$bin" load --quiet --db "/tmp/check/db$scale" -
  GSPARQL=$bin WATDIV=/tmp/check/watdiv DB=/tmp/check/db$scale QUERY_ARGS="--gpu-memory $memory" \
    timeout 280 benchmarks/check_watdiv.sh "$scale" gpu 2>&1 | tee "$OUT/check-sf$scale-gpu-$memory.txt"
done
