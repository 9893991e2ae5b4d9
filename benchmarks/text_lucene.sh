#!/usr/bin/env bash
# gsparql's text:query against Lucene++ (Debian's liblucene++-dev, a C++ port
# of Apache Lucene 3.0: StandardAnalyzer, classic QueryParser) on the same
# literals and search texts (issue 43: rows comparable to Jena's text index
# where the tokenization agrees).
#
#   benchmarks/text_lucene.sh DATA PROPERTY [REPEAT] [ROUNDS]
#
# DATA is loaded into a gsparql database; PROPERTY's string literals are
# exported (SELECT DISTINCT ?l) and indexed by Lucene++, one document each,
# with StandardAnalyzer and no stop words (benchmarks/text_lucene/lucene_search.cpp,
# compiled here with g++). Search texts are picked from the data
# (benchmarks/text_lucene/compare.py searches): frequent, medium and rare
# words, words with digits, hyphens, apostrophes, dots, underscores and
# non-ASCII letters, two words (OR), +a +b, a -b, AND, NOT, phrases, prefixes
# and groups. Each runs through gsparql (SELECT DISTINCT ?l WHERE { (?s ?score
# ?l) text:query (<PROPERTY> "SEARCH") }) and through Lucene++'s QueryParser
# (default operator OR); the sets of matched literals are compared per search,
# and every literal only one side matched is put down to the tokenization
# difference that explains it, from both tokenizations of the literal (Lucene's
# and UAX #29's, as gsparql splits words) or marked "unexplained".
# Then ROUNDS rounds (default 3), interleaved, each timing every search
# REPEAT times (default 5) after a warm-up in both engines (gsparql bench,
# CPU executor; the tool's warm loop); the summary is the median over rounds.
# GSPARQL: the binary (default build/default/cli/gsparql); WORK: a folder for
# the database and the intermediate files (default a temporary one, removed
# at the end); CXX: the compiler (default g++); DIFFERENCES: a file to get
# every literal only one engine matched, with its cause and both tokenizations.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gsparql="${GSPARQL:-$here/../build/default/cli/gsparql}"
data=$1 property=$2 repeat=${3:-5} rounds=${4:-3}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
source "$here/run_header.sh"
print_run_header "text:query against Lucene++ on $(basename "$data"), <$property>, $repeat runs x $rounds rounds"

echo "# gsparql: $gsparql ($("$gsparql" version 2>&1 | head -1))"
pkg-config --exists liblucene++ || { echo "liblucene++-dev is not installed (scripts/install-deps.sh --test)" >&2; exit 1; }
echo "# lucene++ $(pkg-config --modversion liblucene++), $(dpkg-query -W -f '${Package} ${Version}' liblucene++0v5 2>/dev/null || true)"
tool="$work/lucene_search"
"${CXX:-g++}" -std=c++20 -O2 -o "$tool" "$here/text_lucene/lucene_search.cpp" \
  $(pkg-config --cflags --libs liblucene++ icu-uc icu-i18n)
compare() { python3 "$here/text_lucene/compare.py" "$@"; }

rm -rf "$work/db"
start=$(date +%s.%N)
"$gsparql" load --quiet --db "$work/db" "$data" > "$work/load.txt"
echo "# gsparql load (text index included): $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s; $(cat "$work/load.txt")"

mkdir -p "$work/ids"
"$gsparql" query --db "$work/db" --format tsv \
  "SELECT DISTINCT ?l WHERE { ?s <$property> ?l FILTER(isLiteral(?l)) }" > "$work/ids/all.tsv"
compare literals "$work/ids/all.tsv" "$work/literals.tsv" 2>&1 | sed 's/^/# /'
"$tool" tokens < "$work/literals.tsv" > "$work/tokens.tsv"
compare searches "$work/tokens.tsv" "$work/literals.tsv" "$work/searches.tsv"
compare search-words "$work/searches.tsv" | "$tool" tokens > "$work/search-tokens.tsv"
echo "# search texts (kind, text):"
sed 's/^/#   /' "$work/searches.tsv"
cut -f2 "$work/searches.tsv" > "$work/searches.txt"

compare query "$work/searches.tsv" "$property" "$work/queries"
for q in "$work"/queries/*.rq; do
  n=$(basename "$q" .rq); n=${n%%_*}
  "$gsparql" query --db "$work/db" --format tsv -f "$q" > "$work/ids/$n.tsv" 2> "$work/ids/$n.err" || : > "$work/ids/$n.tsv"
done
"$tool" search "$work/literals.tsv" "$work/searches.txt" "$work/lucene-matches.tsv" 1 > /dev/null 2> "$work/lucene-index.txt"
echo "# $(cat "$work/lucene-index.txt")"
echo
echo "== rows per search"
compare compare "$work/searches.tsv" "$work/literals.tsv" "$work/ids" "$work/lucene-matches.tsv" \
  "$work/tokens.tsv" "$work/search-tokens.tsv"

echo
echo "== times (ms, median over $rounds rounds of the median of $repeat warm runs; gsparql: bench, CPU executor, SELECT DISTINCT ?l decoded; lucene hits: parse + search + every hit's number; lucene docs: parse + scored top-k (k = rows) + each hit's stored fields, as Jena reads hits)"
gs=() lu=()
for r in $(seq 1 "$rounds"); do
  "$gsparql" bench --db "$work/db" --queries "$work/queries" --repeat "$repeat" --backend cpu > "$work/gsparql-bench-$r.csv"
  "$tool" search "$work/literals.tsv" "$work/searches.txt" "$work/lucene-matches-$r.tsv" "$repeat" \
    > "$work/lucene-bench-$r.csv" 2>> "$work/lucene-index.txt"
  cmp -s "$work/lucene-matches.tsv" "$work/lucene-matches-$r.tsv" || echo "# round $r: Lucene++'s rows changed" >&2
  gs+=("$work/gsparql-bench-$r.csv") lu+=("$work/lucene-bench-$r.csv")
done
sed 's/^/# /' "$work/lucene-index.txt"
compare times "$work/searches.tsv" "${gs[@]}" -- "${lu[@]}"
echo "# raw: gsparql bench"
cat "${gs[@]}" | sed 's/^/#   /'
echo "# raw: lucene_search"
cat "${lu[@]}" | sed 's/^/#   /'
