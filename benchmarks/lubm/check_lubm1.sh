#!/usr/bin/env bash
# LUBM(1, seed 0) against the published LUBM(1,0) answer sizes: generates the
# data, loads it with the univ-bench hierarchy into a scratch database, runs
# the 14 property-path queries and prints our row count next to UBA's.
#   benchmarks/lubm/check_lubm1.sh [GSPARQL [LUBM_GENERATE]]
# Defaults: build/default/cli/gsparql and build/default/benchmarks/lubm/lubm-generate.
# Our random draws are not UBA's Java ones, so counts that depend on them
# differ; see README.md for what to expect.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gsparql=$(realpath "${1:-$root/build/default/cli/gsparql}")
generate=$(realpath "${2:-$root/build/default/benchmarks/lubm/lubm-generate}")
work=$(mktemp -d "${TMPDIR:-/tmp}/lubm-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The answer sizes of UBA's LUBM(1,0) data, queries 1 to 14.
published=(4 0 6 34 719 7790 67 7790 208 4 224 15 1 5916)

"$generate" --universities 1 --seed 0 --output "$work/lubm1.nt"
"$gsparql" load --quiet --db "$work/db" "$work/lubm1.nt" "$here/univ-bench-schema.ttl"

rows() {  # the number of result rows of a query file
  "$gsparql" query --db "$work/db" --format tsv -f "$1" | tail -n +2 | wc -l
}

printf '%-6s %10s %10s %8s %10s\n' query ours published ratio plain
for n in $(seq 1 14); do
  ours=$(rows "$here/queries/q$n.rq")
  plain=$(rows "$here/queries/q$n-plain.rq")
  expected=${published[$((n - 1))]}
  ratio=$(awk -v a="$ours" -v b="$expected" 'BEGIN { if (b == 0) print (a == 0 ? "=" : "-"); else printf "%.2f", a / b }')
  printf '%-6s %10d %10d %8s %10d\n' "Q$n" "$ours" "$expected" "$ratio" "$plain"
done
