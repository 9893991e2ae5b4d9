#!/usr/bin/env bash
# Load benchmark, two binaries side by side: each input is loaded into a fresh
# database by OLD and NEW in turn, ROUNDS times (interleaved, so that noise
# hits both alike). NEW runs with --verbose: its phases and peak memory.
#   benchmarks/load_compare.sh OLD NEW ROUNDS INPUT...
# Inputs are files as the loader reads them (decompress .zst inputs first to
# time the loader rather than zstd). Raw output on stdout, a table last.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
old=$1 new=$2 rounds=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-load-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

print_run_header "old: $old, new: $new"
table="input,binary,round,seconds,peak_rss_mib"
for input in "$@"; do
  for round in $(seq "$rounds"); do
    for which in old new; do
      bin=$old; flags=(--quiet)
      [ "$which" = new ] && bin=$new && flags=(--quiet --verbose)
      rm -rf "$work/db"
      sync
      echo "## $which, round $round: gsparql load ${flags[*]} --db DB $input"
      /usr/bin/time -f "wall %e s, peak RSS %M KB, user %U s, sys %S s" "$bin" load "${flags[@]}" --db "$work/db" "$input" \
        2> "$work/time.txt" | tee "$work/load.txt"
      cat "$work/time.txt"
      seconds=$(sed -nE 's/^wall ([0-9.]+) s.*/\1/p' "$work/time.txt")
      rss=$(sed -nE 's/.*peak RSS ([0-9]+) KB.*/\1/p' "$work/time.txt")
      table+=$'\n'"$(basename "$input"),$which,$round,$seconds,$((rss / 1024))"
    done
  done
done
echo
echo "$table"
