#!/usr/bin/env bash
# Correctness on a WatDiv scale: every query of ../shared/datasets/watdiv/queries/sfN
# must give the reference rows (row count and SHA-256 of the sorted TSV rows).
#   benchmarks/check_watdiv.sh [SCALE] [BACKEND]   (default: 10 cpu)
# Environment: GSPARQL (the binary), WATDIV (a folder laid out like
# ../shared/datasets/watdiv), DB (an already loaded database to use),
# QUERY_ARGS (more options for every query, e.g. "--gpu-memory 4M").
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-10}
backend=${2:-cpu}
gsparql=${GSPARQL:-build/default/cli/gsparql}
data=${WATDIV:-../shared/datasets/watdiv}
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

db=${DB:-$work/db}
[ -n "${DB:-}" ] || "$gsparql" load --quiet --db "$db" "$data/sf$scale.nt.zst"
pass=0 fail=0
while IFS=$'\t' read -r query rows hash; do
  [ "$query" = query ] && continue
  # shellcheck disable=SC2086
  "$gsparql" query --db "$db" --backend "$backend" ${QUERY_ARGS:-} --format tsv -f "$data/queries/sf$scale/$query.rq" \
    | tail -n +2 | LC_ALL=C sort > "$work/rows"
  got_rows=$(wc -l < "$work/rows")
  got_hash=$(sha256sum < "$work/rows" | cut -d' ' -f1)
  if [ "$got_rows" = "$rows" ] && [ "$got_hash" = "$hash" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $query: $got_rows rows (expected $rows), sha256 $got_hash (expected $hash)"
  fi
done < "$data/expected/sf$scale/expected.tsv"
echo "WatDiv SF$scale, backend $backend ${QUERY_ARGS:-}: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
