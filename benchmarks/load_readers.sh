#!/usr/bin/env bash
# Two builds' readers of N-Triples and Turtle on the same files (issue 40:
# the RDF 1.2 reader must not be slower than Serd was): INPUT (N-Triples,
# compressed or not) is decompressed once and dumped as Turtle by BEFORE;
# then each file is loaded into a fresh database ROUNDS times (default 3) by
# each binary, the binaries' order swapped every round, and every load's wall
# time and its "read, parse and encode" phase (--verbose) printed as CSV,
# with the median per binary and format. Each load must give the same triples.
#
#   benchmarks/load_readers.sh BEFORE AFTER INPUT [ROUNDS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
before=$1
after=$2
input=$3
rounds=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/run_header.sh"
print_run_header "reading $(basename "$input") as N-Triples and Turtle: $before against $after, $rounds rounds"

"$before" load --quiet --db "$work/source" "$input" > /dev/null
triples=$("$before" info --db "$work/source" | awk '/^triples/ {gsub(",", "", $2); print $2}')
"$before" dump --db "$work/source" --format nt > "$work/data.nt"
"$before" dump --db "$work/source" --format ttl > "$work/data.ttl"
rm -rf "$work/source"
echo "# $triples triples; files: $(cd "$work" && ls -l data.* | awk '{printf "%s %.1f MB, ", $9, $5 / 1e6}')"
echo "round,binary,format,seconds,parse_seconds"
for round in $(seq "$rounds"); do
  order=(before after)
  [ $((round % 2)) = 0 ] && order=(after before)
  for format in nt ttl; do
    for which in "${order[@]}"; do
      binary=$before
      [ "$which" = after ] && binary=$after
      rm -rf "$work/db"
      start=$(date +%s.%N)
      parse=$("$binary" load --verbose --db "$work/db" "$work/data.$format" 2>&1 | awk '/read, parse and encode/ {print $5}')
      seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
      loaded=$("$binary" info --db "$work/db" | awk '/^triples/ {gsub(",", "", $2); print $2}')
      [ "$loaded" = "$triples" ] || { echo "$which $format: $loaded triples, not $triples" >&2; exit 1; }
      printf '%s,%s,%s,%.3f,%s\n' "$round" "$which" "$format" "$seconds" "$parse"
    done
  done
done | tee "$work/loads.csv"
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "binary,format,median_seconds,median_parse_seconds"
for which in before after; do
  for format in nt ttl; do
    rows=$(awk -F, -v w="$which" -v f="$format" '$2 == w && $3 == f' "$work/loads.csv")
    printf '%s,%s,%s,%s\n' "$which" "$format" "$(cut -d, -f4 <<< "$rows" | median)" "$(cut -d, -f5 <<< "$rows" | median)"
  done
done
