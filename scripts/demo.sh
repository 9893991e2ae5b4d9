#!/usr/bin/env bash
# Sets up, builds and loads the bundled WatDiv SF1 sample, runs a sample
# query, and (on a terminal) leaves you in the REPL on that data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)" --target gsparql_cli
gsparql=build/default/cli/gsparql
db=build/demo-db
rm -rf "$db"
"$gsparql" load --db "$db" tests/data/watdiv/sf1.nt.zst

query='PREFIX wsdbm: <http://db.uwaterloo.ca/~galuc/wsdbm/>
PREFIX gr: <http://purl.org/goodrelations/>
# The offers of Retailer8 that expire first: product, price, last valid day.
SELECT ?offer ?product ?price ?validThrough WHERE {
  wsdbm:Retailer8 gr:offers ?offer .
  ?offer gr:includes ?product ;
         gr:price ?price ;
         gr:validThrough ?validThrough .
}
ORDER BY ?validThrough ?offer
LIMIT 5'
echo
echo "$query"
"$gsparql" query --db "$db" --backend cpu --format table "$query"

if [ -t 0 ] && [ -t 1 ]; then
  echo
  echo "Now in the REPL on $db: try the query above, ending it with ';'. .help for more, Ctrl-D to leave."
  exec "$gsparql" repl --db "$db" --backend cpu
fi
