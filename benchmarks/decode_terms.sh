#!/usr/bin/env bash
# Turning result ids into text: nanoseconds per output cell (decode and
# write, as `gsparql query --time` reports them) in every SELECT format, with
# the term column (storage/term_column.h) and without it (a copy of the
# database, its `terms` file removed, so terms come from RocksDB), in one run.
#   benchmarks/decode_terms.sh DB [REPEAT] [QUERY]
# Default query: every triple of a typed subject with its type, four columns
# of IRIs and literals, at most 200,000 rows.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
db=$1
repeat=${2:-5}
query=${3:-'SELECT ?s ?p ?o ?type WHERE { ?s ?p ?o . ?s <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?type } LIMIT 200000'}
gsparql=${GSPARQL:-build/default/cli/gsparql}
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-decode.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$db" "$work/without"
rm "$work"/without/gen-*/terms

print_run_header "decode and write per cell; $repeat runs per format, median; query: $query"
# DB FORMAT: "cells,decode_ms" of the run with the median decode time.
median_run() {
  for _ in $(seq "$repeat"); do
    "$gsparql" query --db "$1" --backend cpu --format "$2" --time "$query" 2>&1 >/dev/null |
      sed -n 's/.*(decode and write \([0-9.]*\) ms, \([0-9.]*\) ns a cell).*/\1 \2/p'
  done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}
echo "format,term_column_ms,term_column_ns_per_cell,rocksdb_ms,rocksdb_ns_per_cell,speedup"
for format in tsv csv json xml; do
  read -r with_ms with_ns <<<"$(median_run "$db" "$format")"
  read -r without_ms without_ns <<<"$(median_run "$work/without" "$format")"
  echo "$format,$with_ms,$with_ns,$without_ms,$without_ns,$(python3 -c "print(f'{$without_ms / $with_ms:.2f}')")"
done
