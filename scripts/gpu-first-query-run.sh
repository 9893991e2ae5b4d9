#!/usr/bin/env bash
# On a GPU machine: the first query of a process on PCSR format 4 (blocks
# checked on first use) and an older format, CPU and GPU, with the GPU tests
# of the build (issue 44's fixed costs). Carry .carry/gsparql-serve.txz
# (gsparql, gpu_tests and lib/: scripts/package-portable.sh), an archive
# .carry/gsparql-older.txz holding gsparql-older/gsparql and its lib/ (a
# build that writes the older format), and .carry/watdiv-tool. The current
# binary answers every query, on both databases. Output under $OUT as one
# archive.
#   scripts/gpu-first-query-run.sh [SCALE [OLDER_FORMAT]]
set -uo pipefail
source scripts/carried-serve-env.sh
scale=${1:-100}
older=${2:-3}
[ -x .carry/gsparql-older/gsparql ] || tar xJf .carry/gsparql-older.txz -C .carry
R=/tmp/first-query && rm -rf "$R" && mkdir -p "$R"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 300 .carry/gsparql/gpu_tests > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data "$scale" > /tmp/data.nt
for f in "$older" 4; do
  binary=.carry/gsparql/gsparql; [ "$f" = "$older" ] && binary=.carry/gsparql-older/gsparql
  rm -rf "/tmp/format$f" && "$binary" load --db "/tmp/format$f" --quiet /tmp/data.nt >> "$R/load.txt" 2>&1
done
queries=/tmp/first-queries && rm -rf "$queries" && mkdir -p "$queries"
cp benchmarks/results/first-query-dev-2core-2026-11-30/queries/*.rq "$queries/"
for round in 1 2; do
  for f in "$older" 4; do
    for backend in cpu gpu; do
      CUDA_VISIBLE_DEVICES=0 GSPARQL=$GSPARQL python3 benchmarks/first_query.py "/tmp/format$f" "$queries" \
        --backend "$backend" --runs 3 > "$R/format$f-$backend-round$round.txt" 2>&1
      echo "== format $f, $backend, round $round"; grep -v "^#" "$R/format$f-$backend-round$round.txt"
    done
  done
done
tar czf "${OUT:-/tmp}/first-query.tgz" -C "$R" .
