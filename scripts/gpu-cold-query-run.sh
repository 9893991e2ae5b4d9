#!/usr/bin/env bash
# On a GPU machine: cold GPU queries (the database opened afresh before each
# run, in a started process: `gsparql bench --cold`) reading the adjacency
# the GPU lacks lazily (the default) against copying it whole first
# (--gpu-copy-whole), and both warm, on WatDiv's queries in interleaved
# rounds, with the GPU tests of the build (issue 44's fixed costs). Carry
# .carry/gsparql-serve.txz (gsparql, gpu_tests and lib/:
# scripts/package-portable.sh), .carry/watdiv-tool and .carry/watdiv-sf100
# (queries/ and expected.tsv, from ../shared/datasets/watdiv). Output under
# $OUT as one archive.
#   scripts/gpu-cold-query-run.sh [SCALE [ROUNDS]]
set -uo pipefail
source scripts/carried-serve-env.sh
scale=${1:-100}
rounds=${2:-2}
R=/tmp/cold-query && rm -rf "$R" && mkdir -p "$R"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 .carry/gsparql/gpu_tests > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data "$scale" > /tmp/data.nt
rm -rf /tmp/db && "$GSPARQL" load --db /tmp/db --quiet /tmp/data.nt > "$R/load.txt" 2>&1
queries=.carry/watdiv-sf100/queries
run() {  # MODE KIND ROUND
  local flag=()
  [ "$1" = whole ] && flag=(--gpu-copy-whole)
  local cold=()
  [ "$2" = cold ] && cold=(--cold)
  CUDA_VISIBLE_DEVICES=0 "$GSPARQL" bench --db /tmp/db --queries "$queries" --backend gpu --repeat 3 \
    "${cold[@]}" "${flag[@]}" > "$R/$2-$1-round$3.csv" 2>&1
}
for round in $(seq "$rounds"); do
  order="whole lazy"
  [ $((round % 2)) = 0 ] && order="lazy whole"
  for mode in $order; do
    run "$mode" cold "$round"
    run "$mode" warm "$round"
  done
done
files() { ls "$R"/"$1"-round*.csv | paste -sd, -; }
for kind in cold warm; do
  python3 benchmarks/ab_bench.py .carry/watdiv-sf100/expected.tsv "whole=$(files "$kind-whole")" \
    "lazy=$(files "$kind-lazy")" > "$R/$kind-ab.txt" 2>&1
  echo "== $kind: lazy / whole"; cat "$R/$kind-ab.txt"
done
# Cold against warm, each read lazily as by default.
python3 benchmarks/ab_bench.py .carry/watdiv-sf100/expected.tsv "warm=$(files warm-lazy)" \
  "cold=$(files cold-lazy)" > "$R/cold-over-warm.txt" 2>&1
echo "== cold / warm, lazily read"; cat "$R/cold-over-warm.txt"
tar czf "${OUT:-/tmp}/cold-query.tgz" -C "$R" .
