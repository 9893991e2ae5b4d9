#!/usr/bin/env bash
# Load on `gsparql serve`: CLIENTS concurrent connections (default 64) for
# SECONDS (default 60), each sending the WatDiv SF1 queries of
# tests/data/watdiv/sf1/queries (all 20 templates, 180 queries) one after
# another, through wrk (Debian package wrk) and server_load.lua; prints
# queries per second and the p50/p99 latency.
#
#   benchmarks/server_load.sh [CLIENTS] [SECONDS] [DB]
#
# DB: a database to serve (default: SF1 loaded into a temporary folder).
# GSPARQL: the binary (default build/default/cli/gsparql); SERVE_ARGS: more
# options for `gsparql serve` (e.g. "--threads 4 --backend cpu"); UPDATE_EVERY=N:
# every N-th request of a client is a small update (server_load.lua).
# WRK: the wrk binary (default wrk); WRK_THREADS: its threads (default 2).
# VIRTUOSO_PORT=P: drive Virtuoso's endpoint at 127.0.0.1:P/sparql instead
# of starting gsparql (its data loaded beforehand, into <http://watdiv.org/>).
# PORT=P: drive a gsparql endpoint already running at 127.0.0.1:P/sparql
# (replicas behind a load balancer, scripts/gpu-multi-run.sh).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
clients="${1:-64}"
seconds="${2:-60}"
gsparql="${GSPARQL:-$root/build/default/cli/gsparql}"
work="$(mktemp -d)"
server=
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; wait 2> /dev/null; rm -rf "$work"' EXIT

if [ -n "${PORT:-}" ]; then
  port=$PORT server=
  target="the endpoint at 127.0.0.1:$port"
elif [ -n "${VIRTUOSO_PORT:-}" ]; then
  port=$VIRTUOSO_PORT server=
  export ENDPOINT=virtuoso
  target="Virtuoso at 127.0.0.1:$port"
else
  db="${3:-}"
  if [ -z "$db" ]; then
    db="$work/sf1"
    "$gsparql" load --db "$db" --quiet "$root/tests/data/watdiv/sf1.nt.zst"
  fi
  # Enough queued queries that the clients never see 503 (64 in flight);
  # --update when the mix has updates (the server refuses them otherwise).
  # shellcheck disable=SC2086
  "$gsparql" serve --db "$db" --port 0 --queue "$clients" ${UPDATE_EVERY:+--update} ${SERVE_ARGS:-} > "$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://[^:]*:\([0-9]*\)/.*|\1|p' "$work/server.log")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$work/server.log" >&2; exit 1; }
  target="gsparql serve ${SERVE_ARGS:-} on $(basename "$db")"
fi

source "$here/run_header.sh"
threads=${WRK_THREADS:-2}
print_run_header "$target; wrk -t$threads -c$clients -d${seconds}s, WatDiv SF1 queries (POST, TSV)${UPDATE_EVERY:+, every ${UPDATE_EVERY}th request an update}"
"${WRK:-wrk}" -t"$threads" -c"$clients" -d"${seconds}s" --timeout 30s -s "$here/server_load.lua" "http://127.0.0.1:$port/sparql" \
  -- "$root"/tests/data/watdiv/sf1/queries/*.rq
