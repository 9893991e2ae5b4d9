#!/usr/bin/env bash
# On nvidia-h200: the first query of a process with and without glibc's
# huge-page tunable (and with one malloc arena), ABC/CBA rounds. Carried:
# .carry/gsparql.txz (the portable gsparql and lib/) and .carry/watdiv-tool.
#   benchmarks/results/h200-2026-12-02-first-query-huge-pages/run.sh ROUNDS
set -uo pipefail
rounds=${1:-2}
R=/tmp/first-query-huge-pages && rm -rf "$R" && mkdir -p "$R"
tar xJf .carry/gsparql.txz -C .carry
bin=$PWD/.carry/gsparql/gsparql
{ nproc; nvidia-smi -L; uname -r; grep . /sys/kernel/mm/transparent_hugepage/{enabled,defrag}; ldd --version | head -1; } > "$R/machine.txt" 2>&1
cat "$R/machine.txt"
for v in thp thp-arena1; do
  t=glibc.malloc.hugetlb=1; [ $v = thp-arena1 ] && t=$t:glibc.malloc.arena_max=1
  printf '#!/bin/sh\nGLIBC_TUNABLES=%s exec %s "$@"\n' "$t" "$bin" > "$R/gsparql-$v" && chmod +x "$R/gsparql-$v"
done
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data 100 | "$bin" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
queries=benchmarks/results/first-query-dev-2core-2026-11-30/queries
for ((round = 1; round <= rounds; round++)); do
  order="plain thp thp-arena1"; ((round % 2 == 0)) && order="thp-arena1 thp plain"
  for v in $order; do
    b=$bin; [ $v != plain ] && b=$R/gsparql-$v
    GSPARQL=$b python3 benchmarks/first_query.py /tmp/db "$queries" --backend cpu --runs 5 > "$R/$v-round$round.txt" 2>&1
    echo "== $v, round $round"; grep -v "^#" "$R/$v-round$round.txt" | cut -d, -f1,6,8,9
  done
done
cp "$R"/*.txt "${OUT:-/tmp}/"
