#!/usr/bin/env bash
# A B A B: `UPDATE_EVERY=20 benchmarks/server_load.sh 16 20` with binary A
# (before) and binary B (after), interleaved, each run's output to
# OUT/server_load-ROUND-SIDE.txt.
#   ab_server_load.sh GSPARQL_A GSPARQL_B OUT [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
a=$1 b=$2 out=$3 rounds=${4:-2}
for round in $(seq "$rounds"); do
  for side in A B; do
    binary=$([ "$side" = A ] && echo "$a" || echo "$b")
    { echo "# binary $side: $binary"; GSPARQL="$binary" UPDATE_EVERY=20 "$root/benchmarks/server_load.sh" 16 20; } \
      > "$out/server_load-$round-$side.txt" 2>&1
    echo "round $round $side: $(grep -E '^queries/s|^of them updates' "$out/server_load-$round-$side.txt" | tr '\n' ' ')"
  done
done
