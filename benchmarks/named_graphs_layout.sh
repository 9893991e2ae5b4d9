#!/usr/bin/env bash
# What keeping named graphs as per-graph predicate ids costs (docs/storage.md,
# "Named graphs"). The WatDiv SF1 sample is loaded four ways:
#   default   as the default graph; the SF1 queries as they are
#   one       all in one named graph (load --graph); the queries with FROM <that graph>
#   g10       spread over 10 named graphs by a hash of the subject; the
#   g1000     or over 1,000; the queries' BGPs inside GRAPH ?g { ... }
# and for each it prints the load time, the database's bytes, its predicate
# ids (PCSR sections per direction), the rows of all queries, and the
# geometric mean of the queries' median times (gsparql bench, CPU executor,
# 5 runs; the 180 SF1 queries).
#   benchmarks/named_graphs_layout.sh [GSPARQL_BINARY] > result.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
bin=${1:-build/default/cli/gsparql}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
print_run_header "WatDiv SF1 (tests/data/watdiv/sf1.nt.zst), CPU executor"
zstd -dcq tests/data/watdiv/sf1.nt.zst > "$work/sf1.nt"
mkdir -p "$work/q/default" "$work/q/one" "$work/q/graphs"
for f in tests/data/watdiv/sf1/queries/*.rq; do
  name=$(basename "$f")
  cp "$f" "$work/q/default/$name"
  sed 's/ WHERE {/ FROM <http:\/\/g\/all> WHERE {/' "$f" > "$work/q/one/$name"
  # the BGP inside GRAPH ?g: the first { opens it, the last } closes both
  sed -e '0,/WHERE {/s//WHERE { GRAPH ?g {/' -e '$s/}$/} }/' "$f" > "$work/q/graphs/$name"
done
# N-Quads: each triple in graph <http://g/H>, H a hash of its subject modulo $1.
spread() {
  awk -v n="$1" 'BEGIN { for (i = 32; i < 127; i++) code[sprintf("%c", i)] = i }
    { h = 0; s = $1; for (i = 1; i <= length(s); i++) h = (h * 31 + code[substr(s, i, 1)]) % n
      line = $0; sub(/ \.$/, "", line); print line " <http://g/" h "> ." }' "$work/sf1.nt"
}
spread 10 > "$work/g10.nq"
spread 1000 > "$work/g1000.nq"
# The first table of gsparql bench's CSV: query,template,rows,min_ms,median_ms,...
queryRows() { awk -F, 'NR > 1 && NF == 0 { exit } NR > 1'; }
geomean() { queryRows | awk -F, '{ s += log($5); n++ } END { printf "%.3f", exp(s / n) }'; }
rowsOf() { queryRows | awk -F, '{ r += $3 } END { print r }'; }
printf "%-8s %8s %10s %11s %10s %17s\n" variant load_s bytes predicates rows query_geomean_ms
for variant in default one g10 g1000; do
  db="$work/db-$variant"
  case $variant in
    default) load=("$work/sf1.nt"); queries=default ;;
    one) load=(--graph http://g/all "$work/sf1.nt"); queries=one ;;
    *) load=("$work/$variant.nq"); queries=graphs ;;
  esac
  start=$(date +%s.%N)
  "$bin" load --quiet --db "$db" "${load[@]}" > /dev/null
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  bytes=$(du -sb "$db" | cut -f1)
  predicates=$("$bin" info --db "$db" | awk '/^predicates/ { print $2 }')
  "$bin" bench --db "$db" --queries "$work/q/$queries" --repeat 5 --backend cpu > "$work/bench-$variant.csv"
  printf "%-8s %8.2f %10s %11s %10s %17s\n" "$variant" "$seconds" "$bytes" "$predicates" \
    "$(rowsOf < "$work/bench-$variant.csv")" "$(geomean < "$work/bench-$variant.csv")"
done
echo
echo "# per query: rows and median ms of default, one, g10, g1000"
for variant in default one g10 g1000; do queryRows < "$work/bench-$variant.csv" | cut -d, -f1,3,5 > "$work/$variant.short"; done
paste -d, "$work/default.short" "$work/one.short" "$work/g10.short" "$work/g1000.short" |
  awk -F, '{ printf "%-8s %7s %8s %7s %8s %7s %8s %7s %8s\n", $1, $2, $3, $5, $6, $8, $9, $11, $12 }'
