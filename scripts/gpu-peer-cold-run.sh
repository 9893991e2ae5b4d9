#!/usr/bin/env bash
# On a GPU machine of two GPUs (issue 41): the GPU tests, what the first GPU
# query of a process costs with one GPU and with two (a setup of two enables
# peer access between them), and cold queries (the database opened afresh
# for each run) whose adjacency outgrows a small cache, streamed from the
# host or copied from the GPUs' homes. Carry .carry/gsparql-serve.txz
# (gsparql/{gsparql,gpu_tests,lib}), .carry/watdiv-tool and
# .carry/watdiv-sf100 (queries/, expected/). Output under $OUT as one archive.
#   scripts/gpu-peer-cold-run.sh [ROUNDS]
set -uo pipefail
source scripts/carried-serve-env.sh
rounds=${1:-2}
R=/tmp/peer-cold && rm -rf "$R" && mkdir -p "$R/csv"
{ nproc; nvidia-smi -L; nvidia-smi topo -m; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 .carry/gsparql/gpu_tests > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
q=.carry/watdiv-sf100/queries
# The first GPU query of a process: the process's wall time and its phases.
for ((round = 1; round <= rounds; round++)); do
  for gpus in 1 2; do
    for query in L1_01 S1_01 C3_01; do
      for run in 1 2 3; do
        start=$(date +%s%N)
        phases=$("$GSPARQL" query --db /tmp/db --backend gpu --gpus "$gpus" --time -f "$q/$query.rq" 2>&1 >/dev/null | grep "^time:")
        echo "$round,$gpus,$query,$run,$((($(date +%s%N) - start) / 1000)),$phases"
      done
    done
  done
done | tee "$R/first-gpu-query.csv"
# Cold queries with a 16 MB limit a GPU (a 4 MB cache): homes of 64 MB, or none.
for ((round = 1; round <= rounds; round++)); do
  for peer in 64M 0; do
    "$GSPARQL" bench --db /tmp/db --queries "$q" --backend gpu --gpus 2 --gpu-memory 16M --gpu-peer-memory "$peer" \
      --cold --repeat 3 > "$R/csv/cold-peer$peer-$round.csv" 2>&1
  done
done
expected=.carry/watdiv-sf100/expected/expected.tsv
python3 benchmarks/ab_bench.py "$expected" before="$(ls "$R"/csv/cold-peer0-*.csv | paste -sd,)" \
  after="$(ls "$R"/csv/cold-peer64M-*.csv | paste -sd,)" > "$R/cold-host-vs-homes.txt"
tail -4 "$R/cold-host-vs-homes.txt"
tar czf "${OUT:-/tmp}/peer-cold.tgz" -C "$R" .
