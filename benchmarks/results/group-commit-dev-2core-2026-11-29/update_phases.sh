#!/usr/bin/env bash
# Where one small update's time goes under `gsparql serve` (no other load):
# N one-triple updates sent one after another with curl (latency each),
# the server's fsyncs and renames timed by strace, and a perf profile of
# the server over the same kind of stream (its share of samples per phase).
#   update_phases.sh GSPARQL DB [N]
set -euo pipefail
gsparql=$1 db=$2 n=${3:-200}
work=$(mktemp -d)
trap 'kill $server 2> /dev/null; wait 2> /dev/null; rm -rf "$work"' EXIT
start_server() {
  "$gsparql" serve --db "$db" --port 0 --update > "$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://[^:]*:\([0-9]*\)/.*|\1|p' "$work/server.log"); [ -n "$port" ] && break; sleep 0.1
  done
}
updates() {  # $1: first number; $2: count. Prints each update's seconds.
  for i in $(seq "$1" $(($1 + $2 - 1))); do
    form=$([ $((i % 2)) = 1 ] && echo "INSERT DATA" || echo "DELETE DATA")
    curl -s -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/sparql-update' \
      --data-binary "$form { <http://e/load/t0> <http://e/n> $(((i + 1) / 2)) }" "http://127.0.0.1:$port/sparql"
    # a query after each update, as under load: the server opens the new snapshot
    curl -s -o /dev/null -H 'Content-Type: application/sparql-query' --data-binary 'ASK { ?s <http://e/n> ?o }' \
      "http://127.0.0.1:$port/sparql"
  done
}
summary() { sort -n | awk '{a[NR]=$1; s+=$1} END {printf "n %d  mean %.2f ms  p50 %.2f ms  p90 %.2f ms  max %.2f ms\n", NR, 1000*s/NR, 1000*a[int(NR*0.5)+1], 1000*a[int(NR*0.9)+1], 1000*a[NR]}'; }
start_server
echo "== update latency, sequential, delta growing from $(ls "$db"/gen-*/ | grep -c '^delta-' || true) files"
updates 1 "$n" | summary
echo "== the server's fsync/fdatasync/rename calls over 40 updates (strace -T: seconds in the call)"
strace -f -T -e trace=fsync,fdatasync,rename -p $server -o "$work/strace" 2> /dev/null &
tracer=$!; sleep 1
updates $((n + 1)) 40 > /dev/null
kill $tracer; wait $tracer 2> /dev/null || true
grep -E 'fsync|fdatasync' "$work/strace" | sed -n 's/.*<\([0-9.]*\)>$/\1/p' | summary
echo "calls: $(grep -cE 'fsync|fdatasync' "$work/strace") fsync/fdatasync, $(grep -c 'rename' "$work/strace") rename"
echo "== perf profile of the server over $n updates (self+children, top entries)"
perf record -g -o "$work/perf.data" -p $server 2> /dev/null &
recorder=$!; sleep 1
updates $((n + 41)) "$n" > /dev/null
kill -INT $recorder; wait $recorder 2> /dev/null || true
# the share of the server's samples under each phase (children included)
perf report -i "$work/perf.data" --children --stdio --percent-limit 0.3 2> /dev/null | grep -E '^ +[0-9]' |
  grep -E 'Database::update|Database::Database|GraphStore::GraphStore|Dictionary::Dictionary|readDeltaFiles|applyDelta|planUpdate|parseUpdate|writeDeltaFile|writeFileDurably|syncDirectory|GenerationWriter::GenerationWriter|SparqlServer::database|fsync|fdatasync|QueryJob::run' | head -40
