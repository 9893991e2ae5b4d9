#!/usr/bin/env bash
# On the GPU machine: what an update costs a GPU server, two binaries side by
# side (benchmarks/update_warmth.py), on WatDiv SF100 generated here, loaded
# once and copied for each. Carry .carry/gsparql-serve.txz (the binary under
# test, with lib/), .carry/gsparql-before.txz (the one to compare with, as
# gsparql/gsparql-before, using that lib/), .carry/watdiv-tool and
# .carry/watdiv-sf100. Output under $OUT.
#   [RUNS='gpu:lazy:server ...'] scripts/gpu-update-warmth-run.sh [ROUNDS]
set -euo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
rounds=${1:-6}
source scripts/carried-serve-env.sh
[ -x .carry/gsparql/gsparql-before ] || tar xJf .carry/gsparql-before.txz -C .carry
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
t=$SECONDS
.carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
"$GSPARQL" load --quiet --db /tmp/warmth-before /tmp/sf100.nt
rm /tmp/sf100.nt
cp -r /tmp/warmth-before /tmp/warmth-after
echo "generated, loaded and copied in $((SECONDS - t)) s"
# BACKEND:MODE:UPDATES: the GPU without and with --gpu-preload, the CPU
# executor, then each with updates from another process (gsparql update).
for run in ${RUNS:-gpu:lazy:server gpu:preload:server cpu:lazy:server gpu:lazy:process cpu:lazy:process}; do
  IFS=: read -r backend mode updates <<< "$run"
  echo "== $run"
  BACKEND=$backend UPDATES=$updates python3 benchmarks/update_warmth.py .carry/watdiv-sf100/queries "$rounds" "$mode" \
    "before=$PWD/.carry/gsparql/gsparql-before:/tmp/warmth-before:7901" "after=$GSPARQL:/tmp/warmth-after:7902" |
    tee "$OUT/update-warmth-$backend-$mode-$updates.csv"
done
