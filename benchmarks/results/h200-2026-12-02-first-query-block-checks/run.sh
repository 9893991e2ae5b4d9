#!/usr/bin/env bash
# On nvidia-h200: the first query of a process before and after per-block
# check claims (storage/block_checks.h), ABBA rounds, CPU executor, and the
# context switches of C3's one-shot process and of its COUNT(*) form.
# Carried: .carry/gsparql.txz (the before build, with lib/),
# .carry/gsparql-after.xz (the after binary, stripped), .carry/watdiv-tool.
#   benchmarks/results/h200-2026-12-02-first-query-block-checks/run.sh ROUNDS
set -uo pipefail
rounds=${1:-4}
R=/tmp/first-query-block-checks && rm -rf "$R" && mkdir -p "$R"
[ -x .carry/gsparql/gsparql ] || tar xJf .carry/gsparql.txz -C .carry
before=$PWD/.carry/gsparql/gsparql after=$PWD/.carry/gsparql/gsparql-after
xz -dc .carry/gsparql-after.xz > "$after" && chmod +x "$after"  # beside the before build: the same lib/
# A one-shot process's CPU time, context switches and page faults (getrusage of the child).
usage() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"cpu {1000 * (u.ru_utime + u.ru_stime):.1f} ms, voluntary switches {u.ru_nvcsw}, involuntary {u.ru_nivcsw}, minor faults {u.ru_minflt}")' "$@"
}
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
[ -d /tmp/db ] || { cp -r .carry/watdiv-tool /tmp/wt && /tmp/wt/generate.sh data 100 | $after load --db /tmp/db --quiet -; }
queries=benchmarks/results/first-query-dev-2core-2026-11-30/queries
Q=$queries/C3_01.rq
echo "SELECT (COUNT(*) AS ?n) { $(tr '\n' ' ' < $Q | sed 's/SELECT ?v0 WHERE {//')" > "$R/c3count.rq"
for side in before after before after; do
  b=$before; [ $side = after ] && b=$after
  for q in $Q "$R/c3count.rq"; do
    echo "== $side, $(basename $q)"
    for i in 1 2 3; do usage $b query --db /tmp/db -f $q --backend cpu --format tsv; done
  done
done > "$R/usage.txt"
cat "$R/usage.txt"
for ((round = 1; round <= rounds; round++)); do
  order="before after"; ((round % 2 == 0)) && order="after before"
  for side in $order; do
    b=$before; [ $side = after ] && b=$after
    GSPARQL=$b python3 benchmarks/first_query.py /tmp/db "$queries" --backend cpu --runs 5 > "$R/$side-round$round.txt" 2>&1
    echo "== $side, round $round"; grep -v "^#" "$R/$side-round$round.txt" | cut -d, -f1,6,8,9
  done
done
cp "$R"/*.txt "$R"/*.rq "${OUT:-/tmp}/"
