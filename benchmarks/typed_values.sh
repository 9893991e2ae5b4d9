#!/usr/bin/env bash
# FILTER and ORDER BY on typed numbers with the value column (storage/
# value_column.h) and without it (the same database, its `values` file
# removed, so every row is decoded), in one run on this machine.
#   benchmarks/typed_values.sh [TRIPLES] [REPEAT]     (default: 300000 3)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
triples=${1:-300000}
repeat=${2:-3}
gsparql=build/default/cli/gsparql
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-typed.XXXXXX")
trap 'rm -rf "$work"' EXIT

print_run_header "$triples triples <s_i> <v> random xsd:integer in [0, 10^6]; $repeat runs per query, median"
python3 -c "
import random
random.seed(1)
for i in range($triples):
    print('<http://e/s%d> <http://e/v> \"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> .' % (i, random.randint(0, 10**6)))
" > "$work/data.nt"
"$gsparql" load --quiet --db "$work/with" "$work/data.nt"
cp -r "$work/with" "$work/without"
rm "$work"/without/gen-*/values
median_ms() {  # DB QUERY: median of the execute times --time reports (writing included, as rows stream out)
  for _ in $(seq "$repeat"); do
    "$gsparql" query --db "$1" --backend cpu --time "$2" 2>&1 >/dev/null |
      sed -n 's/.*execute \(and write \)\{0,1\}\([0-9.]*\) ms.*/\2/p'
  done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
echo "query,with_value_column_ms,decoding_every_row_ms,speedup"
for q in 'SELECT (COUNT(*) AS ?n) WHERE { ?s <http://e/v> ?v FILTER(?v > 500000) }' \
         'SELECT ?s WHERE { ?s <http://e/v> ?v } ORDER BY ?v LIMIT 10' \
         'SELECT ?s WHERE { ?s <http://e/v> ?v FILTER(?v >= 1000 && ?v < 2000) } ORDER BY DESC(?v)'; do
  with=$(median_ms "$work/with" "$q")
  without=$(median_ms "$work/without" "$q")
  echo "\"$q\",$with,$without,$(python3 -c "print(f'{$without / $with:.1f}')")"
done
