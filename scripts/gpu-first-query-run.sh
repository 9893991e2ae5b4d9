#!/usr/bin/env bash
# On a GPU machine: the first query of a process on PCSR format 2 (CRC-32
# sums) and format 3 (XXH3), CPU and GPU, with the GPU tests of the build
# (issue 44's fixed costs). Carry .carry/gsparql-serve.txz (gsparql,
# gpu_tests, lib/ and gsparql-format2: a build that writes format 2) and
# .carry/watdiv-tool. Output under $OUT as one archive.
#   scripts/gpu-first-query-run.sh [SCALE]
set -uo pipefail
source scripts/carried-serve-env.sh
scale=${1:-100}
R=/tmp/first-query && rm -rf "$R" && mkdir -p "$R"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 .carry/gsparql/gpu_tests > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data "$scale" > /tmp/data.nt
for f in 2 3; do
  binary=.carry/gsparql/gsparql; [ "$f" = 2 ] && binary=.carry/gsparql/gsparql-format2
  rm -rf "/tmp/format$f" && "$binary" load --db "/tmp/format$f" --quiet /tmp/data.nt >> "$R/load.txt" 2>&1
done
queries=/tmp/first-queries && rm -rf "$queries" && mkdir -p "$queries"
cp benchmarks/queries/heavy_counts/*.rq benchmarks/results/first-query-dev-2core-2026-11-29/S_user0_all_predicates.rq "$queries/"
for round in 1 2; do
  for f in 2 3; do
    for backend in cpu gpu; do
      CUDA_VISIBLE_DEVICES=0 GSPARQL=$GSPARQL python3 benchmarks/first_query.py "/tmp/format$f" "$queries" \
        --backend "$backend" --runs 3 > "$R/format$f-$backend-round$round.txt" 2>&1
      echo "== format $f, $backend, round $round"; grep -v "^#" "$R/format$f-$backend-round$round.txt"
    done
  done
done
tar czf "${OUT:-/tmp}/first-query.tgz" -C "$R" .
