#!/usr/bin/env bash
# k-nearest on the GPU machine (issue 43), in one call: every GPU test (the
# GPU executor against the CPU executor), then the k-nearest queries of
# QUERIES over the countries and cities of benchmarks/geo_postgis.sh on the
# CPU executor, the GPU executor and auto: the same rows on each (sorted:
# ties may come in any order), and their times in interleaved rounds.
# Carry .carry/gsparql.txz (scripts/package-portable.sh) and DATA (the
# N-Triples benchmarks/geo_postgis_data.mjs writes, zstd-compressed).
# Output under $OUT.
#   scripts/gpu-nearest-run.sh DATA.nt.zst QUERIES [ROUNDS]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
data=$1 queries=$2 rounds=${3:-3}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/gpu.txt" 2>&1
export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators
{ time timeout "${TEST_SECONDS:-360}" .carry/gsparql/gpu_tests; } > "$OUT/gpu-tests.txt" 2>&1
tail -4 "$OUT/gpu-tests.txt"

db=/tmp/nearest-db && rm -rf "$db"
"$GSPARQL" load --db "$db" "$data" > "$OUT/load.txt" 2>&1
for q in "$queries"/*.rq; do
  name=$(basename "$q" .rq)
  for backend in cpu gpu auto; do
    "$GSPARQL" query --db "$db" --backend "$backend" --format tsv -f "$q" | sort > "/tmp/$name.$backend"
  done
  if cmp -s "/tmp/$name.cpu" "/tmp/$name.gpu" && cmp -s "/tmp/$name.cpu" "/tmp/$name.auto"; then
    echo "$name: same $(($(wc -l < "/tmp/$name.cpu") - 1)) rows on cpu, gpu and auto"
  else
    echo "$name: DIFFERENT rows"
  fi
done | tee "$OUT/rows.txt"
for r in $(seq "$rounds"); do
  for backend in cpu gpu auto; do
    echo "== round $r: $backend"
    "$GSPARQL" bench --db "$db" --queries "$queries" --backend "$backend" --repeat 5
  done
done > "$OUT/rounds.txt" 2>&1
"$GSPARQL" query --db "$db" --backend gpu --explain -f "$queries/filtered.rq" > /dev/null 2> "$OUT/explain-filtered-gpu.txt"
