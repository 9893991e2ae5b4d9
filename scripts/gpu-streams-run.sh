#!/usr/bin/env bash
# On the GPU machine: the server load mix (benchmarks/server_load.sh, 64
# clients, the WatDiv SF1 queries of tests/data) against `gsparql serve
# --backend gpu` with 1, 2, 4 and 8 GPU executors (--gpu-streams), each on its
# own CUDA stream, then --backend auto with the server's default, in one run.
# Carry .carry/serve and .carry/wrk as for scripts/gpu-server-load-run.sh.
# Output under $OUT.
#   scripts/gpu-streams-run.sh [SECONDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
seconds=${1:-30}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
{ nproc; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } | tee "$OUT/machine.txt"
"$GSPARQL" load --db /tmp/sf1 --quiet tests/data/watdiv/sf1.nt.zst
for streams in 1 2 4 8; do
  SERVE_ARGS="--backend gpu --gpu-streams $streams" benchmarks/server_load.sh 64 "$seconds" /tmp/sf1 \
    > "$OUT/gpu_streams_$streams.txt" 2>&1
  echo "streams $streams: $(grep -E 'queries/s|latency' "$OUT/gpu_streams_$streams.txt" | tr '\n' ' ')"
done
SERVE_ARGS="--backend auto" benchmarks/server_load.sh 64 "$seconds" /tmp/sf1 > "$OUT/auto_default.txt" 2>&1
echo "auto: $(grep -E 'queries/s|latency' "$OUT/auto_default.txt" | tr '\n' ' ')"
