#!/usr/bin/env bash
# On nvidia-h200: where C3's first query of a process goes, by perf (Debian's,
# carried with its libraries in .carry/perf.txz), ten one-shot processes of
# C3_01 and ten of its COUNT(*) form, CPU executor. Also carried:
# .carry/gsparql.txz, .carry/watdiv-tool. perf.data files go to $OUT for
# symbols here (the carried gsparql is stripped; the same build-id unstripped).
set -uo pipefail
for a in gsparql perf; do [ -x .carry/$a/$a ] || tar xJf .carry/$a.txz -C .carry; done
bin=$PWD/.carry/gsparql/gsparql
perf() { LD_LIBRARY_PATH=$PWD/.carry/perf/lib .carry/perf/perf "$@"; }
[ -d /tmp/db ] || { cp -r .carry/watdiv-tool /tmp/wt && /tmp/wt/generate.sh data 100 | $bin load --db /tmp/db --quiet -; }
Q=benchmarks/results/first-query-dev-2core-2026-11-30/queries/C3_01.rq
echo "SELECT (COUNT(*) AS ?n) { $(tr '\n' ' ' < $Q | sed 's/SELECT ?v0 WHERE {//')" > /tmp/c3count.rq
cat /proc/sys/kernel/perf_event_paranoid
for q in $Q /tmp/c3count.rq; do
  n=$(basename $q .rq)
  perf stat -e minor-faults,major-faults,task-clock,context-switches -- $bin query --db /tmp/db -f $q --backend cpu --format tsv 2>&1 >/dev/null | grep -E "faults|clock|switches|elapsed"
  perf record -q -F 20000 -o ${OUT:-/tmp}/$n.data -- sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do $bin query --db /tmp/db -f $q --backend cpu --format tsv > /dev/null; done"
  perf report -i ${OUT:-/tmp}/$n.data --no-children --sort dso,sym --percent-limit 0.7 --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -45
  perf report -i ${OUT:-/tmp}/$n.data --no-children --sort dso --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -12
done
