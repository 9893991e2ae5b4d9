#!/usr/bin/env bash
# On the GPU machine: copying adjacency to the GPU with two builds,
# interleaved: `gsparql calibrate`'s price per megabyte copied (each query's
# first GPU run beyond its fastest, over the bytes it copied) and cold GPU
# runs (`bench --cold`: every run opens the database afresh, so the copies
# are in its time) of queries that copy several megabytes.
#   scripts/gpu-copy-ab-run.sh AFTER_DIR BEFORE_DIR [ROUNDS]
# Each folder holds a gsparql binary (and its lib/). The SF100 database of
# gpu-sf100-env.sh is loaded by AFTER's binary where missing. Output under $OUT.
set -uo pipefail
source scripts/gpu-sf100-env.sh
declare -A builds=([after]=$1 [before]=$2)
rounds=${3:-2}
if [[ ! -d $db ]]; then
  .carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
  "${builds[after]}/gsparql" load --quiet --db "$db" /tmp/sf100.nt
fi
cold=/tmp/copy-ab-queries
mkdir -p "$cold"
cp "$queries"/{C1_01,C2_01,C3_01,S1_01,F4_01}.rq benchmarks/queries/counts/K3_star5.rq "$cold"/
for round in $(seq 1 "$rounds"); do
  for side in after before; do
    g=${builds[$side]}/gsparql
    "$g" calibrate --db "$db" --queries "$queries" --repeat 3 --out "$OUT/model-$side-$round" \
      > "$OUT/calibrate-$side-$round.txt" 2>&1
    "$g" bench --db "$db" --queries "$cold" --repeat 3 --backend gpu --cold > "$OUT/cold-$side-$round.csv" 2>&1
  done
done
for side in after before; do
  echo "== $side: price per megabyte copied, by round"
  grep -ho "[0-9.]* per megabyte copied" "$OUT"/calibrate-$side-*.txt
  echo "== $side: cold GPU medians (ms), by round"
  for f in "$OUT"/cold-$side-*.csv; do grep -v "^query\|^template\|^$" "$f" | grep "_" | cut -d, -f1,5 | tr '\n' ' '; echo; done
done
