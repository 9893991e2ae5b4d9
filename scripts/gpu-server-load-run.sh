#!/usr/bin/env bash
# On the GPU machine (16 cores): the server load mix of issue 12 against
# gsparql serve and against Virtuoso 7.2.5 on the same data, in one run:
# 64 clients for SECONDS (default 60) sending the WatDiv SF1 queries of
# tests/data, without updates (gsparql with the default workers, then
# --threads 8 and 16, and --backend cpu) and with every 20th request a
# one-triple update (benchmarks/server_load.sh). Carry .carry/gsparql.txz
# (scripts/package-portable.sh), .carry/wrk (Debian's wrk and libluajit)
# and .carry/virtuoso (scripts/virtuoso-env.sh). Output under $OUT.
#   scripts/gpu-server-load-run.sh [SECONDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
seconds=${1:-60}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
nproc | tee "$OUT/machine.txt"

echo "== gsparql serve"
"$GSPARQL" load --db /tmp/sf1 --quiet tests/data/watdiv/sf1.nt.zst
run() {  # NAME [SERVE_ARGS]
  SERVE_ARGS="${2:-}" benchmarks/server_load.sh 64 "$seconds" /tmp/sf1 > "$OUT/$1.txt" 2>&1
  echo "$1: $(grep -E 'queries/s|latency' "$OUT/$1.txt" | tr '\n' ' ')"
}
run gsparql_queries_only
run gsparql_threads8 "--threads 8"
run gsparql_threads16 "--threads 16"
run gsparql_threads8_connections4 "--threads 8 --connection-threads 4"
run gsparql_cpu_queries_only "--backend cpu"
"$GSPARQL" load --db /tmp/sf1u --quiet tests/data/watdiv/sf1.nt.zst
UPDATE_EVERY=20 benchmarks/server_load.sh 64 "$seconds" /tmp/sf1u > "$OUT/gsparql_every20_update.txt" 2>&1
tail -3 "$OUT/gsparql_every20_update.txt"
"$GSPARQL" info --db /tmp/sf1u | head -5 | tee -a "$OUT/gsparql_every20_update.txt"

echo "== Virtuoso 7.2.5 (../shared/tools/README.md), SF1 bulk-loaded into <http://watdiv.org/>"
source scripts/virtuoso-env.sh
# 64 clients: Virtuoso's HTTP server gets 16 threads and 64 connections (the template has 4).
virtuoso_setup /tmp/virtuoso 16 2000000 \
  "/^\[HTTPServer\]/,/^\[/{s|^MaxClientConnections.*|MaxClientConnections = 64|; s|^ServerThreads.*|ServerThreads = 16|}; /^\[Parameters\]/,/^\[/{s|^ServerThreads.*|ServerThreads = 100|}"
"$GSPARQL" dump --db /tmp/sf1 > $v/data/sf1.nt
grep -n "ServerThreads\|MaxClientConnections" $v/db/virtuoso.ini | tee "$OUT/virtuoso_settings.txt"
virtuoso_start
isql "ld_dir('$v/data', '*.nt', 'http://watdiv.org/'); rdf_loader_run(); checkpoint;" > /dev/null
isql "grant SPARQL_UPDATE to \"SPARQL\";" > /dev/null
isql "SPARQL SELECT COUNT(*) FROM <http://watdiv.org/> WHERE { ?s ?p ?o };" | tee -a "$OUT/virtuoso_settings.txt"
VIRTUOSO_PORT=8890 benchmarks/server_load.sh 64 "$seconds" > "$OUT/virtuoso_queries_only.txt" 2>&1
tail -3 "$OUT/virtuoso_queries_only.txt"
VIRTUOSO_PORT=8890 UPDATE_EVERY=20 benchmarks/server_load.sh 64 "$seconds" > "$OUT/virtuoso_every20_update.txt" 2>&1
tail -3 "$OUT/virtuoso_every20_update.txt"
isql "SPARQL SELECT COUNT(*) FROM <http://watdiv.org/> WHERE { ?s ?p ?o };" | tee -a "$OUT/virtuoso_every20_update.txt"
virtuoso_stop
