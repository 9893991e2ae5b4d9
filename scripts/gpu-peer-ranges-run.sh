#!/usr/bin/env bash
# Issue 41, graphs larger than one GPU: adjacency too large for a GPU's cache
# read in place from the GPUs' homes over NVLink (engine/gpu/peer_ranges.cuh),
# on a machine of two or more GPUs (nvidia-h200-x2). The GPU tests; then
# WatDiv SF100 with every GPU limited to a sixteenth of the adjacency
# (--gpu-memory; its cache a quarter of that), so that most queries stream:
# every query's rows checked against the reference answers with the homes
# on, what each query read where (EXPLAIN), and interleaved rounds of
# gsparql bench in four setups:
#   one-host    --gpus 1    (the first GPU) streaming from the host
#   two-host    --gpus 0,1  streaming from the host (--gpu-peer-memory 0)
#   two-peers   --gpus 0,1  reading the homes (--gpu-peer-memory: half the adjacency each)
#   two-whole   --gpus 0,1  no memory limit: every adjacency whole in each cache
# compared by benchmarks/ab_bench.py. Carry .carry/gsparql-serve.txz
# (gsparql, gpu_tests and lib/: scripts/package-portable.sh), .carry/watdiv-tool
# and .carry/watdiv-sf100 (queries/ and expected/ of
# ../shared/datasets/watdiv for sf100). Output under $OUT: the summaries, and
# every file in peer-ranges.tar.xz.
#   OUT=DIR scripts/gpu-peer-ranges-run.sh [ROUNDS]
set -uo pipefail
source scripts/carried-serve-env.sh
rounds=${1:-2}
bin=$(dirname "$GSPARQL")
OUT=${OUT:-/tmp/peer-ranges-out} && mkdir -p "$OUT"
R=/tmp/peer-ranges && rm -rf "$R" && mkdir -p "$R"
trap 'tar cJf "$OUT/peer-ranges.tar.xz" -C /tmp peer-ranges' EXIT
{ nproc; nvidia-smi -L; nvidia-smi topo -m; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 "$bin/gpu_tests" > "$R/gpu-tests.txt" 2>&1
echo "gpu_tests exit $?" >> "$R/gpu-tests.txt"
grep -A1 "read peers' ranges" "$R/gpu-tests.txt" | head -8
tail -3 "$R/gpu-tests.txt"

wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
db=/tmp/peer-db && rm -rf "$db"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db "$db" --quiet - > "$R/load.txt" 2>&1
adjacency=$(du -cb "$db"/gen-*/*.pcsr | tail -1 | cut -f1)
memory=$((adjacency / 16))
peer=$((adjacency / 2))
echo "adjacency: $adjacency bytes; --gpu-memory $memory; --gpu-peer-memory $peer" | tee "$R/budget.txt"
declare -A setup=(
  [one-host]="--gpus 1 --gpu-memory $memory"
  [two-host]="--gpus 0,1 --gpu-memory $memory --gpu-peer-memory 0"
  [two-peers]="--gpus 0,1 --gpu-memory $memory --gpu-peer-memory $peer"
  [two-whole]="--gpus 0,1"
)
printf '%s\n' "${!setup[@]}" | sort | while read -r name; do echo "$name: ${setup[$name]}"; done >> "$R/budget.txt"

check=/tmp/peer-check/watdiv && mkdir -p "$check/queries" "$check/expected"
ln -sfn "$PWD/.carry/watdiv-sf100/queries" "$check/queries/sf100"
ln -sfn "$PWD/.carry/watdiv-sf100/expected" "$check/expected/sf100"
GSPARQL=$GSPARQL WATDIV=$check DB=$db QUERY_ARGS="${setup[two-peers]}" \
  timeout 240 benchmarks/check_watdiv.sh 100 gpu > "$R/check-two-peers.txt" 2>&1
tail -1 "$R/check-two-peers.txt" | tee "$OUT/check-two-peers.txt"
for q in .carry/watdiv-sf100/queries/*.rq; do
  # shellcheck disable=SC2086
  echo "$(basename "$q" .rq): $("$GSPARQL" query --db "$db" --backend gpu ${setup[two-peers]} --explain -f "$q" 2>&1 \
    >/dev/null | grep -o '[0-9]* adjacency(s) \(read in place\|streamed\)[^;]*;[^;]*' | head -1)"
done > "$R/explain-two-peers.txt"
grep 'read in place' "$R/explain-two-peers.txt" > "$R/reading-homes.txt"
echo "queries reading homes: $(wc -l < "$R/reading-homes.txt") of $(wc -l < "$R/explain-two-peers.txt")" | tee "$OUT/reading-homes.txt"

order=(one-host two-host two-peers two-whole)
for round in $(seq "$rounds"); do
  names=("${order[@]}")
  [ $((round % 2)) -eq 0 ] && names=(two-whole two-peers two-host one-host)
  for name in "${names[@]}"; do
    # shellcheck disable=SC2086
    timeout 100 "$GSPARQL" bench --db "$db" --queries .carry/watdiv-sf100/queries --repeat 3 --backend gpu \
      ${setup[$name]} > "$R/$name-$round.csv" 2> "$R/$name-$round.err"
  done
done
files() { for round in $(seq "$rounds"); do printf '%s,' "$R/$1-$round.csv"; done | sed 's/,$//'; }
expected=.carry/watdiv-sf100/expected/expected.tsv
for base in two-host one-host two-whole; do
  for only in "" "--only $R/reading-homes.txt"; do
    suffix=${only:+-reading-homes}
    # shellcheck disable=SC2086
    python3 benchmarks/ab_bench.py $only "$expected" "$base=$(files "$base")" "two-peers=$(files two-peers)" \
      > "$R/two-peers-vs-$base$suffix.txt" 2>&1
    echo "== two-peers / $base${suffix:+ (the queries reading homes)}"
    grep -E '^(all|rounds|row)' "$R/two-peers-vs-$base$suffix.txt"
  done
done | tee "$OUT/summary.txt"
