#!/usr/bin/env bash
# On the GPU machine (16 cores): gsparql serve under the load mix of
# benchmarks/server_load.sh (64 clients, 20 s each) for several counts of
# workers (--threads) and connection threads, then Virtuoso 7.2.5 on the
# same data, in one call. Carry as for scripts/gpu-server-load-run.sh.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
source scripts/carried-serve-env.sh
"$GSPARQL" load --db /tmp/sf1 --quiet tests/data/watdiv/sf1.nt.zst
for combo in "4 2" "8 4" "8 8" "12 4" "6 4" "4 4" "8 6"; do
  set -- $combo
  SERVE_ARGS="--threads $1 --connection-threads $2" benchmarks/server_load.sh 64 20 /tmp/sf1 > "$OUT/gsparql_w$1_c$2.txt" 2>&1
  echo "workers $1 connection threads $2: $(grep -E 'queries/s|latency' "$OUT/gsparql_w$1_c$2.txt" | tr '\n' ' ')"
done
source scripts/virtuoso-env.sh
virtuoso_setup /tmp/virtuoso 16 2000000 \
  "/^\[HTTPServer\]/,/^\[/{s|^MaxClientConnections.*|MaxClientConnections = 64|; s|^ServerThreads.*|ServerThreads = 16|}; /^\[Parameters\]/,/^\[/{s|^ServerThreads.*|ServerThreads = 100|}"
"$GSPARQL" dump --db /tmp/sf1 > $v/data/sf1.nt
virtuoso_start
isql "ld_dir('$v/data', '*.nt', 'http://watdiv.org/'); rdf_loader_run(); checkpoint;" > /dev/null
VIRTUOSO_PORT=8890 benchmarks/server_load.sh 64 20 > "$OUT/virtuoso_queries_only.txt" 2>&1
echo "virtuoso: $(grep -E 'queries/s|latency' "$OUT/virtuoso_queries_only.txt" | tr '\n' ' ')"
virtuoso_stop
