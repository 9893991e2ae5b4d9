#!/usr/bin/env bash
# On nvidia-h200: the first query of a process and warm, with the process
# on 16, 4 and 1 cores (taskset; oneTBB sizes its pool by the affinity mask),
# ABC/CBA rounds. Carried: .carry/gsparql.txz, .carry/watdiv-tool.
#   benchmarks/results/h200-2026-12-02-first-query-huge-pages/run-cores.sh ROUNDS
set -uo pipefail
rounds=${1:-2}
R=/tmp/first-query-cores && rm -rf "$R" && mkdir -p "$R"
[ -x .carry/gsparql/gsparql ] || tar xJf .carry/gsparql.txz -C .carry
bin=$PWD/.carry/gsparql/gsparql
[ -d /tmp/db ] || { cp -r .carry/watdiv-tool /tmp/wt && /tmp/wt/generate.sh data 100 | $bin load --db /tmp/db --quiet -; }
for c in 4 1; do
  printf '#!/bin/sh\nexec taskset -c 0-%s %s "$@"\n' $((c - 1)) "$bin" > "$R/gsparql-cores$c" && chmod +x "$R/gsparql-cores$c"
done
queries=benchmarks/results/first-query-dev-2core-2026-11-30/queries
for ((round = 1; round <= rounds; round++)); do
  order="cores16 cores4 cores1"; ((round % 2 == 0)) && order="cores1 cores4 cores16"
  for v in $order; do
    b=$bin; [ $v != cores16 ] && b=$R/gsparql-$v
    GSPARQL=$b python3 benchmarks/first_query.py /tmp/db "$queries" --backend cpu --runs 5 > "$R/$v-round$round.txt" 2>&1
    echo "== $v, round $round"; grep -v "^#" "$R/$v-round$round.txt" | cut -d, -f1,6,8,9
  done
done
cp "$R"/*.txt "${OUT:-/tmp}/"
