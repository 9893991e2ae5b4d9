#!/usr/bin/env bash
# Keyword search joined with a BGP (issue 43): text:query against the same
# search written as FILTER(CONTAINS(LCASE(?l), "word")) (which the text index
# narrows), as CONTAINS(LCASE(STR(?l)), "word") (which it does not: the scan)
# and as a REGEX of the whole word, on words that give the same rows in all forms
# (benchmarks/text_search_queries.py). The data is loaded twice, with and
# without the text index, and both loads' times printed; then every query
# runs REPEAT times (default 5) after a warm-up, on each backend of BACKENDS
# (default cpu; cpu,gpu interleaves them), and a summary gives per word the
# medians, the rows (which must agree) and the ratios, with geometric means.
#
#   benchmarks/text_search.sh DATA PROPERTY JOIN [REPEAT] [BACKENDS]
# e.g. benchmarks/text_search.sh sf100.nt.zst http://purl.org/stuff/rev#text \
#        '?s <http://purl.org/stuff/rev#reviewer> ?x .' 5 cpu,gpu
# GSPARQL: the binary (default build/default/cli/gsparql); WORK: a folder
# for the databases (default a temporary one, removed at the end).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gsparql="${GSPARQL:-$here/../build/default/cli/gsparql}"
data=$1 property=$2 join=$3 repeat=${4:-5} backends=${5:-cpu}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
source "$here/run_header.sh"
print_run_header "text search on $(basename "$data"), <$property>, $repeat runs, backends $backends"

for index in no yes; do
  rm -rf "$work/db"
  start=$(date +%s.%N)
  "$gsparql" load --quiet --verbose --text-index "$index" --db "$work/db" "$data" > "$work/load-$index.txt"
  echo "# load with --text-index $index: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s;" \
       "$(grep -E 'text index|^loaded' "$work/load-$index.txt" | tr -s ' ' | tr '\n' ';')"
done
du -b "$work"/db/gen-*/text | awk '{printf "# text index file: %.1f MB\n", $1 / 1e6}'

python3 "$here/text_search_queries.py" "$data" "$property" "$join" "$work/queries" 2>&1 | sed 's/^/# /'
sed 's/^/# /' "$work/queries/words.tsv"
"$gsparql" bench --db "$work/db" --queries "$work/queries" --repeat "$repeat" --backend "$backends" | tee "$work/bench.csv"
python3 - "$work/bench.csv" <<'PY'
import csv, math, sys
backend, medians, rows = "cpu", {}, {}
for line in open(sys.argv[1]):
    if line.startswith("== --backend"):
        backend = line.split()[2]
    if not line.startswith(("text_", "contains_", "regex_", "scan_")):
        continue
    r = next(csv.reader([line]))
    form, word = r[0].split("_", 1)
    medians[(backend, form, word)] = float(r[4])
    rows[(backend, form, word)] = int(r[2])
forms = ("contains", "scan", "regex")
print("\nbackend,word,rows,text_ms," + ",".join(f + "_ms" for f in forms) + "," + ",".join(f + "/text" for f in forms))
for b in sorted({k[0] for k in medians}):
    ratios = {f: [] for f in forms}
    for word in sorted({k[2] for k in medians if k[0] == b}):
        n = {f: rows[(b, f, word)] for f in ("text",) + forms}
        if len(set(n.values())) != 1:
            sys.exit(f"{b} {word}: the forms' rows differ: {n}")
        t = max(medians[(b, "text", word)], 0.001)
        ms = [medians[(b, f, word)] for f in forms]
        for f, m in zip(forms, ms):
            ratios[f].append(m / t)
        print(f"{b},{word},{n['text']},{t:.3f}," + ",".join(f"{m:.3f}" for m in ms) + "," +
              ",".join(f"{m / t:.1f}" for m in ms))
    g = [math.exp(sum(map(math.log, ratios[f])) / len(ratios[f])) for f in forms]
    print(f"{b},geometric mean,,," + "," * len(forms) + ",".join(f"{x:.1f}" for x in g))
PY
