#!/usr/bin/env bash
# Latency of small SPARQL updates (gsparql update), which are written as
# delta files beside the generation (docs/storage.md, "Delta"): one triple
# inserted, one deleted, and a DELETE/INSERT WHERE over a few hundred
# triples, three times each, on a WatDiv database; then a query's time on
# the snapshot with its delta and after a merge into a generation.
#   benchmarks/update_latency.sh GSPARQL DATA.nt.zst WORKDIR
set -euo pipefail
gsparql=$1 data=$2 work=$3
source "$(dirname "$0")/run_header.sh"
print_run_header "update latency on $(basename "$data")"
echo "# command: $0 $*"
rm -rf "$work/db"
"$gsparql" load --db "$work/db" --quiet "$data"
"$gsparql" info --db "$work/db" | sed -n 1,3p
wsdbm=http://db.uwaterloo.ca/~galuc/wsdbm
run() {
  local what=$1 request=$2
  for i in 1 2 3; do
    echo -n "$what #$i: "
    "$gsparql" update --db "$work/db" "$request" 2>&1
  done
}
run "INSERT DATA, 1 triple" "INSERT DATA { <http://e/new> <http://e/p> <http://e/o> }"
run "DELETE DATA, 1 triple" "DELETE DATA { <http://e/new> <http://e/p> <http://e/o> }"
run "DELETE/INSERT WHERE" "DELETE { ?u <$wsdbm/gender> ?g } INSERT { ?u <http://e/sex> ?g } WHERE { ?u <$wsdbm/gender> ?g FILTER(?g = <$wsdbm/Gender1>) }"
run "DELETE/INSERT WHERE back" "DELETE { ?u <http://e/sex> ?g } INSERT { ?u <$wsdbm/gender> ?g } WHERE { ?u <http://e/sex> ?g }"
"$gsparql" info --db "$work/db" | sed -n 1,5p
query="SELECT (COUNT(*) AS ?n) { ?u <$wsdbm/gender> ?g . ?u <$wsdbm/follows> ?f }"
for i in 1 2 3; do echo -n "query with the delta #$i: "; "$gsparql" query --db "$work/db" --backend cpu --time --format tsv "$query" 2>&1 | tr '\n' ' '; echo; done
echo -n "merge (an update with --merge): "
"$gsparql" update --db "$work/db" --merge "INSERT DATA { <http://e/new2> <http://e/p> <http://e/o> }" 2>&1
"$gsparql" info --db "$work/db" | sed -n 1,5p
for i in 1 2 3; do echo -n "query after the merge #$i: "; "$gsparql" query --db "$work/db" --backend cpu --time --format tsv "$query" 2>&1 | tr '\n' ' '; echo; done
