#!/usr/bin/env bash
# Loading the same triples from each RDF syntax the loader reads (issue 40):
# the input (N-Triples, compressed or not) is loaded once and dumped as
# N-Triples, Turtle, RDF/XML and JSON-LD by gsparql itself; then each is
# loaded into a fresh database ROUNDS times (default 3), the syntaxes
# interleaved in each round, and every load's triples/s printed, with the
# median per syntax. Each load must give the input's number of triples.
#
#   benchmarks/load_formats.sh INPUT [ROUNDS]
# GSPARQL: the binary (default build/default/cli/gsparql).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gsparql="${GSPARQL:-$here/../build/default/cli/gsparql}"
input=$1
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/run_header.sh"
print_run_header "loading $(basename "$input") from each syntax, $rounds rounds"

"$gsparql" load --quiet --db "$work/source" "$input" > /dev/null
triples=$("$gsparql" info --db "$work/source" | awk '/^triples/ {gsub(",", "", $2); print $2}')
formats=(nt ttl rdfxml jsonld)
extensions=(nt ttl rdf jsonld)
for i in "${!formats[@]}"; do
  "$gsparql" dump --db "$work/source" --format "${formats[$i]}" > "$work/data.${extensions[$i]}"
done
echo "# $triples triples; files: $(cd "$work" && ls -l data.* | awk '{printf "%s %.1f MB, ", $9, $5 / 1e6}')"
echo "round,format,seconds,triples_per_second"
for round in $(seq "$rounds"); do
  for i in "${!formats[@]}"; do
    rm -rf "$work/db"
    start=$(date +%s.%N)
    "$gsparql" load --quiet --db "$work/db" "$work/data.${extensions[$i]}" > /dev/null
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
    loaded=$("$gsparql" info --db "$work/db" | awk '/^triples/ {gsub(",", "", $2); print $2}')
    [ "$loaded" = "$triples" ] || { echo "${formats[$i]}: $loaded triples, not $triples" >&2; exit 1; }
    awk -v r="$round" -v f="${formats[$i]}" -v s="$seconds" -v t="$triples" 'BEGIN {printf "%s,%s,%.3f,%.0f\n", r, f, s, t / s}'
  done
done | tee "$work/loads.csv"
echo "format,median_triples_per_second"
for f in "${formats[@]}"; do
  printf '%s,%s\n' "$f" "$(awk -F, -v f="$f" '$2 == f {print $4}' "$work/loads.csv" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
done
