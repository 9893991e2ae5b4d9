#!/usr/bin/env bash
# On nvidia-h200: the first query of a process before and after rows are
# decoded and formatted by the query's threads (api/result_sink.cpp), ABBA
# rounds, CPU executor; C3's one-shot "decode and write" times; the bytes of
# C3's result in every solutions format, before against after.
# Carried: .carry/gsparql.txz (the before build, with lib/),
# .carry/gsparql-after.xz (the after binary, stripped), .carry/watdiv-tool.
#   benchmarks/results/h200-2026-12-02-first-query-parallel-write/run.sh ROUNDS
set -uo pipefail
rounds=${1:-4}
R=/tmp/first-query-parallel-write && rm -rf "$R" && mkdir -p "$R"
[ -x .carry/gsparql/gsparql ] || tar xJf .carry/gsparql.txz -C .carry
before=$PWD/.carry/gsparql/gsparql after=$PWD/.carry/gsparql/gsparql-after
xz -dc .carry/gsparql-after.xz > "$after" && chmod +x "$after"  # beside the before build: the same lib/
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
[ -d /tmp/db ] || { cp -r .carry/watdiv-tool /tmp/wt && /tmp/wt/generate.sh data 100 | $after load --db /tmp/db --quiet -; }
queries=benchmarks/results/first-query-dev-2core-2026-11-30/queries
Q=$queries/C3_01.rq
for format in tsv csv json xml; do
  for side in before after; do
    b=$before; [ $side = after ] && b=$after
    echo "$format $side $($b query --db /tmp/db -f $Q --backend cpu --format $format | md5sum)"
  done
done > "$R/same-bytes.txt"
cat "$R/same-bytes.txt"
for side in before after before after; do
  b=$before; [ $side = after ] && b=$after
  echo "== $side"
  for i in 1 2 3 4 5; do $b query --db /tmp/db -f $Q --backend cpu --time --format tsv 2>&1 >/dev/null; done
done > "$R/c3-time-lines.txt"
cat "$R/c3-time-lines.txt"
for ((round = 1; round <= rounds; round++)); do
  order="before after"; ((round % 2 == 0)) && order="after before"
  for side in $order; do
    b=$before; [ $side = after ] && b=$after
    GSPARQL=$b python3 benchmarks/first_query.py /tmp/db "$queries" --backend cpu --runs 5 > "$R/$side-round$round.txt" 2>&1
    echo "== $side, round $round"; grep -v "^#" "$R/$side-round$round.txt" | cut -d, -f1,6,8,9
  done
done
tar czf "${OUT:-/tmp}/results.tgz" -C "$R" .  # one file: a call brings back few
