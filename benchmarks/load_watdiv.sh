#!/usr/bin/env bash
# Load benchmark: WatDiv SF10 and SF100 from ../shared, one fresh database
# each. Reports seconds, triples per second, peak memory and database size.
#   benchmarks/load_watdiv.sh [BUILD_DIR] [SCALES...]   (default: build/default 10 100)
# Writes the raw output of every run and a summary table to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
build=${1:-build/default}
shift || true
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(10 100)
gsparql="$build/cli/gsparql"
data=../shared/datasets/watdiv
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-load-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

print_run_header
summary="scale,triples_read,unique_triples,seconds,triples_per_second,peak_rss_mib,db_size_mib"
for sf in "${scales[@]}"; do
  input="$data/sf$sf.nt.zst"
  db="$work/sf$sf"
  sync
  echo "## gsparql load --quiet --db DB $input"
  /usr/bin/time -v "$gsparql" load --quiet --db "$db" "$input" 2> "$work/time.txt" | tee "$work/load.txt"
  grep -E "Elapsed|Maximum resident|Percent of CPU" "$work/time.txt"
  line=$(cat "$work/load.txt")
  # "loaded 1,234 triples (1,200 new) from 1 file in 0.12 s; the database now holds 1,200 triples, ..."
  read_=$(sed -E 's/^loaded ([0-9,]+) triples .*/\1/' <<<"$line" | tr -d ,)
  unique=$(sed -E 's/.* now holds ([0-9,]+) triples.*/\1/' <<<"$line" | tr -d ,)
  seconds=$(sed -E 's/.* in ([0-9.]+) s; .*/\1/' <<<"$line")
  rss=$(awk '/Maximum resident/ {printf "%.0f", $NF/1024}' "$work/time.txt")
  size=$(du -sm "$db" | cut -f1)
  rate=$(awk -v n="$read_" -v s="$seconds" 'BEGIN {printf "%.0f", n/s}')
  summary+=$'\n'"sf$sf,$read_,$unique,$seconds,$rate,$rss,$size"
  rm -rf "$db"
done
echo
echo "$summary"
