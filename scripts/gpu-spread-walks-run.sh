#!/usr/bin/env bash
# On a GPU machine of two or more GPUs (nvidia-h200-x2): the GPU tests of the
# build, then the optimizer's walks on one GPU against every GPU of the
# machine, each batch dealt out over them (walk-throughput --spread, issue
# 41), for batches of 1, 4 and 16 plans, in interleaved rounds. Carry
# .carry/gsparql-serve.txz (gsparql, gpu_tests, walk-throughput and lib/:
# scripts/package-portable.sh), .carry/watdiv-tool and .carry/watdiv-sf100
# (the queries of ../shared/datasets/watdiv/queries/sf100, each template's
# first used). Output under $OUT.
#   OUT=DIR scripts/gpu-spread-walks-run.sh [ROUNDS]
set -uo pipefail
source scripts/carried-serve-env.sh
rounds=${1:-2}
bin=$(dirname "$GSPARQL")
R=${OUT:-/tmp/spread-walks} && mkdir -p "$R"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 "$bin/gpu_tests" > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
db=/tmp/walks-db && rm -rf "$db"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db "$db" --quiet - > "$R/load.txt" 2>&1
queries=/tmp/walk-queries && rm -rf "$queries" && mkdir -p "$queries"
cp .carry/watdiv-sf100/queries/*_01.rq "$queries/"
ls "$queries" > "$R/queries.txt"
for round in $(seq "$rounds"); do
  for batch in 1 4 16; do
    "$bin/walk-throughput" --db "$db" --queries "$queries" --gpu-only --spread --batch "$batch" --repeat 3 \
      > "$R/walks-batch$batch-round$round.csv" 2>&1
    echo "== batch $batch, round $round"; sed -n '/^estimator,/,$p' "$R/walks-batch$batch-round$round.csv"
  done
done
