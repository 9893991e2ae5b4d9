#!/usr/bin/env bash
# Latency of small SPARQL updates (gsparql update), which rewrite the
# database as a new generation: one triple inserted, one deleted, and a
# DELETE/INSERT WHERE over a few hundred triples, three times each, on a
# WatDiv database.
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
