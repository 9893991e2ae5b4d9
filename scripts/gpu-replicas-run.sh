#!/usr/bin/env bash
# Replicas behind a load balancer on one host (issue 41, part 2): one writer
# (`serve --update`) and one read-only replica per GPU (CUDA_VISIBLE_DEVICES),
# all on the same database folder, which each follows as the writer commits
# (docs/server.md, "Replicas"), behind HAProxy (Debian's, carried in
# .carry/haproxy) with a health check on /health. Measures: queries/s through
# HAProxy with 1 and with N replicas (each with 1/N of the host's cores), the
# time until an update is visible on every replica, and a replica killed and
# restarted under load. Run by scripts/gpu-multi-run.sh serve, with
# GSPARQL, WRK set (scripts/carried-serve-env.sh) and /tmp/sf1 loaded.
#   scripts/gpu-replicas-run.sh [SECONDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
seconds=${1:-20}
db=/tmp/sf1
gpus=$(nvidia-smi -L | wc -l)
replicas=${REPLICAS:-$gpus}  # more than the GPUs: they share them, replica r on GPU (r - 1) mod gpus
threads=$(( $(nproc) / (2 * replicas) )); [ "$threads" -ge 2 ] || threads=2
[ -x .carry/haproxy/haproxy ] || tar xJf .carry/haproxy.txz -C .carry  # carried packed (.carry/haproxy.txz)
haproxy() { LD_LIBRARY_PATH=$PWD/.carry/haproxy/lib .carry/haproxy/haproxy "$@"; }
pids=()
trap 'kill "${pids[@]}" 2> /dev/null; pkill -f "serve --db $db"; wait 2> /dev/null' EXIT

start_server() {  # PORT GPU ARGS...: a server on one GPU, its pid in $started
  local port=$1 gpu=$2; shift 2
  CUDA_VISIBLE_DEVICES=$gpu "$GSPARQL" serve --db "$db" --port "$port" --threads "$threads" \
    --connection-threads "$(( (threads + 1) / 2 ))" --queue 256 "$@" > "$OUT/replica-$port.log" 2>&1 &
  started=$!
  pids+=("$started")
  for _ in $(seq 300); do
    health "$port" > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server on port $port did not start" >&2
  return 1
}
health() { python3 -c "import sys, urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$1/health', timeout=2).read().decode().strip())"; }

balancer() {  # REPLICAS: HAProxy on 8000 over replicas 8101.., /update to the writer on 8100; stats on 8404
  local cfg=/tmp/haproxy.cfg
  cat > $cfg <<CFG
global
  maxconn 8192
  nbthread 8
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  http-reuse always
frontend sparql
  bind 127.0.0.1:8000
  use_backend writer if { path_beg /update }
  default_backend replicas
backend replicas
  balance roundrobin
  # A query sent to a replica that has just died (before its check fails
  # it) goes to another: queries are safe to send again.
  retries 2
  option redispatch 1
  retry-on conn-failure empty-response response-timeout 503
  option httpchk
  http-check send meth GET uri /health
  http-check expect status 200
  default-server inter 200ms fall 2 rise 2
$(for r in $(seq 1 "$1"); do echo "  server r$r 127.0.0.1:$((8100 + r)) check"; done)
backend writer
  server w 127.0.0.1:8100 check
listen stats
  bind 127.0.0.1:8404
  stats enable
  stats uri /stats
CFG
  # Its output to a file: a daemon left holding the caller's pipe would keep a `| tail` waiting.
  haproxy -f $cfg -D -p /tmp/haproxy.pid >> "$OUT/haproxy.log" 2>&1 < /dev/null && sleep 1
}
stop_balancer() { kill "$(cat /tmp/haproxy.pid)" 2> /dev/null; sleep 0.5; pkill -9 -f "haproxy -f /tmp/haproxy.cfg"; }
load() {  # NAME: 64 clients through HAProxy for $seconds
  PORT=8000 benchmarks/server_load.sh 64 "$seconds" > "$OUT/replicas-$1.txt" 2>&1
  echo "$1: $(grep -E 'queries/s' "$OUT/replicas-$1.txt")"
}
up() { python3 -c "
import csv, io, urllib.request
rows = csv.DictReader(io.StringIO(urllib.request.urlopen('http://127.0.0.1:8404/stats;csv').read().decode().lstrip('# ')))
print(' '.join(r['svname'] + '=' + r['status'] for r in rows if r['pxname'] == 'replicas' and r['svname'].startswith('r')))"; }

echo "== one writer (GPU 0) and $replicas read-only replicas on $gpus GPU(s), $threads workers each, on one folder" | tee "$OUT/replicas.txt"
start_server 8100 0 --update --backend auto
replica_pids=()
for r in $(seq 1 "$replicas"); do
  start_server $((8100 + r)) $(( (r - 1) % gpus )) --read-only --backend auto
  replica_pids+=("$started")
done
balancer 1
load one-replica | tee -a "$OUT/replicas.txt"
stop_balancer
balancer "$replicas"
load "$replicas-replicas" | tee -a "$OUT/replicas.txt"

echo "== an update through HAProxy to the writer, then every replica's /health until it shows the new snapshot" | tee -a "$OUT/replicas.txt"
for trial in 1 2 3 4 5; do
  python3 - "$replicas" "$trial" <<'PY' | tee -a "$OUT/replicas.txt"
import json, sys, time, urllib.request
replicas, trial = int(sys.argv[1]), sys.argv[2]
def health(port):
    return json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).read())
before = health(8100)["snapshot"]
body = f"INSERT DATA {{ <http://example.org/replica-test> <http://example.org/trial> \"{trial}\" }}".encode()
start = time.monotonic()
req = urllib.request.Request("http://127.0.0.1:8000/update", data=body, headers={"Content-Type": "application/sparql-update"})
urllib.request.urlopen(req, timeout=10).read()
committed = time.monotonic() - start
after = health(8100)["snapshot"]
seen = {}
while len(seen) < replicas and time.monotonic() - start < 10:
    for r in range(1, replicas + 1):
        if r not in seen and health(8100 + r)["snapshot"] == after:
            seen[r] = time.monotonic() - start
    time.sleep(0.002)
print(f"update {trial}: {before} -> {after}; committed in {committed * 1000:.1f} ms; visible on " +
      ", ".join(f"replica {r} at {t * 1000:.1f} ms" for r, t in sorted(seen.items())) +
      (f"; NOT on {replicas - len(seen)} replica(s) after 10 s" if len(seen) < replicas else ""))
PY
done

if [ "$replicas" -gt 1 ]; then
  echo "== replica 1 killed (kill -9) 3 s into a 12 s load, started again at 7 s" | tee -a "$OUT/replicas.txt"
  { sleep 3; kill -9 "${replica_pids[0]}"; sleep 0.6; echo "after kill: $(up)"; sleep 3.4
    start_server 8101 0 --read-only --backend auto; sleep 1; echo "after restart: $(up)"; } >> "$OUT/replicas.txt" 2>&1 &
  seconds=12 load killed-and-restarted | tee -a "$OUT/replicas.txt"
  wait %1 2> /dev/null
  grep -E "Non-2xx|Socket errors|after" "$OUT/replicas-killed-and-restarted.txt" "$OUT/replicas.txt" | tee -a "$OUT/replicas.txt"
fi
stop_balancer
