#!/usr/bin/env bash
# On a GPU machine: the first query of a process, before and after, in
# interleaved rounds (issue 44's fixed costs), with the GPU tests of the
# after build. Carry .carry/gsparql-serve.txz holding gsparql/gsparql,
# gsparql/gpu_tests, gsparql/lib and gsparql/gsparql-before (the before
# build's binary, which shares lib/; scripts/package-portable.sh of each),
# and .carry/watdiv-tool. WatDiv SF(SCALE) is generated and loaded here by
# the after binary; both read that database. benchmarks/first_query.py runs
# the nine queries of benchmarks/results/first-query-dev-2core-2026-11-30/queries
# on the CPU and GPU executors, ABBA. Output under $OUT as one archive.
#   scripts/gpu-first-query-ab-run.sh [SCALE [ROUNDS]]
set -uo pipefail
source scripts/carried-serve-env.sh
scale=${1:-100}
rounds=${2:-2}
before=$root/.carry/gsparql/gsparql-before
R=/tmp/first-query-ab && rm -rf "$R" && mkdir -p "$R"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  timeout 240 .carry/gsparql/gpu_tests > "$R/gpu-tests.txt" 2>&1
tail -3 "$R/gpu-tests.txt"
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data "$scale" | "$GSPARQL" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
queries=benchmarks/results/first-query-dev-2core-2026-11-30/queries
for ((round = 1; round <= rounds; round++)); do
  order="before after"; ((round % 2 == 0)) && order="after before"
  for side in $order; do
    binary=$GSPARQL; [ "$side" = before ] && binary=$before
    for backend in cpu gpu; do
      CUDA_VISIBLE_DEVICES=0 GSPARQL=$binary python3 benchmarks/first_query.py /tmp/db "$queries" \
        --backend "$backend" --runs 3 > "$R/$side-$backend-round$round.txt" 2>&1
      echo "== $side, $backend, round $round"; grep -v "^#" "$R/$side-$backend-round$round.txt" | cut -d, -f1,6,8,9
    done
  done
done
tar czf "${OUT:-/tmp}/first-query-ab.tgz" -C "$R" .
