#!/usr/bin/env bash
# On the GPU machine: two gsparql binaries served in turns (A B A B ...) under
# the server load mix (benchmarks/server_load.sh: 64 clients, WatDiv SF1
# queries, the defaults of `gsparql serve`), so that their ratio is measured
# within one run on one machine. UPDATE_EVERY=N: every N-th request an update,
# each run on its own copy of the freshly loaded database. Output under $OUT:
# one file per run.
#   scripts/gpu-server-ab-run.sh BINARY_A BINARY_B [ROUNDS] [SECONDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
a=$1 b=$2 rounds=${3:-2} seconds=${4:-20}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
"$a" load --db /tmp/sf1ab --quiet tests/data/watdiv/sf1.nt.zst
for round in $(seq "$rounds"); do
  for side in A B; do
    bin=$a; [ "$side" = B ] && bin=$b
    rm -rf /tmp/sf1run && cp -r /tmp/sf1ab /tmp/sf1run
    GSPARQL=$bin benchmarks/server_load.sh 64 "$seconds" /tmp/sf1run > "$OUT/round$round-$side.txt" 2>&1
    echo "round $round $side: $(grep -E 'queries/s|updates|latency' "$OUT/round$round-$side.txt" | tr '\n' ' ')"
  done
done
