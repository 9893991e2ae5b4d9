#!/usr/bin/env bash
# Sets up, builds, loads the bundled WatDiv SF1 sample and shows what is in it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)" --target gsparql_cli
gsparql=build/default/cli/gsparql
db=build/demo-db
rm -rf "$db"
"$gsparql" load --db "$db" tests/data/watdiv/sf1.nt.zst
"$gsparql" info --db "$db" --verify
echo
echo "First triples of the dump (gsparql dump --db $db):"
"$gsparql" dump --db "$db" | sed -n 1,5p
