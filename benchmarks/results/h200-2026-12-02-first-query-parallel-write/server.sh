#!/usr/bin/env bash
# On nvidia-h200, after run.sh's setup: C3 (424,856 rows) as TSV from a warm
# server (--threads 1: one query at a time, on all 16 cores), before and
# after, ABAB: three untimed requests, then ten timed (client wall time).
#   benchmarks/results/h200-2026-12-02-first-query-parallel-write/server.sh
set -uo pipefail
R=/tmp/first-query-parallel-write-server && rm -rf "$R" && mkdir -p "$R"
[ -x .carry/gsparql/gsparql ] || tar xJf .carry/gsparql.txz -C .carry
before=$PWD/.carry/gsparql/gsparql after=$PWD/.carry/gsparql/gsparql-after
[ -x "$after" ] || { xz -dc .carry/gsparql-after.xz > "$after" && chmod +x "$after"; }
[ -d /tmp/db ] || { cp -r .carry/watdiv-tool /tmp/wt && /tmp/wt/generate.sh data 100 | $after load --db /tmp/db --quiet -; }
Q=benchmarks/results/first-query-dev-2core-2026-11-30/queries/C3_01.rq
for side in ${SIDES:-before after before after}; do
  b=$before; [ $side = after ] && b=$after
  $b serve --db /tmp/db --port 7979 --threads 1 --backend cpu > /dev/null 2>&1 & pid=$!
  sleep 3
  python3 - "$side" "$Q" <<'PY'
import sys, time, urllib.parse, urllib.request
side, query = sys.argv[1], open(sys.argv[2]).read()
body = urllib.parse.urlencode({"query": query}).encode()
def once():
    request = urllib.request.Request("http://127.0.0.1:7979/sparql", data=body,
                                     headers={"Accept": "text/tab-separated-values"})
    start = time.perf_counter()
    size = len(urllib.request.urlopen(request).read())
    return (time.perf_counter() - start) * 1000, size
for _ in range(3): once()
runs = [once() for _ in range(10)]
times = sorted(t for t, _ in runs)
print(f"{side}: {runs[0][1]} bytes, median {times[5]:.2f} ms, min {times[0]:.2f}, all " + " ".join(f"{t:.2f}" for t, _ in runs))
PY
  kill $pid; wait $pid 2>/dev/null
done | tee "$R/server.txt"
