#!/usr/bin/env bash
# The queries of a folder before and after a change: the same rows from both
# binaries (each query's rows sorted: ties may come in either order), then
# ROUNDS rounds of `gsparql bench --repeat 5` on the CPU executor in ABBA
# order, and per query the median of the rounds' medians, after / before.
#   benchmarks/ab_queries.sh BEFORE_GSPARQL AFTER_GSPARQL DB ROUNDS DIR
# DIR holds queries/*.rq and gets rows.txt, {before,after}-round*.csv and the
# summary on stdout.
set -euo pipefail
before=$1 after=$2 db=$3 rounds=${4:-2}
here=$(cd "$5" && pwd)
# Same rows, each query answered by both binaries (sorted: ties may come in either order).
for q in "$here"/queries/*.rq; do
  if cmp -s <("$before" query --db "$db" --backend cpu --format tsv -f "$q" | sort) \
            <("$after" query --db "$db" --backend cpu --format tsv -f "$q" | sort); then
    echo "$(basename "$q" .rq): same rows"
  else
    echo "$(basename "$q" .rq): DIFFERENT rows"
  fi
done | tee "$here/rows.txt"
bench() { "$1" bench --db "$db" --queries "$here/queries" --backend cpu --repeat 5 > "$here/$2-round$3.csv"; }
for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then bench "$before" before "$r"; bench "$after" after "$r"
  else bench "$after" after "$r"; bench "$before" before "$r"; fi
done
python3 - "$here" "$rounds" <<'PY'
import csv, statistics, sys, math
here, rounds = sys.argv[1], int(sys.argv[2])
def read(side):
    out = {}
    for r in range(1, rounds + 1):
        for rec in csv.reader(open(f"{here}/{side}-round{r}.csv")):
            if rec and rec[0] == "template": break
            if len(rec) > 4 and rec[0] != "query": out.setdefault(rec[0], []).append((int(rec[2]), float(rec[4])))
    return out
b, a = read("before"), read("after")
print("| query | rows before | rows after | before ms | after ms | after / before |\n|---|---:|---:|---:|---:|---:|")
ratios = []
for q in sorted(a):
    tb = statistics.median(t for _, t in b[q]); ta = statistics.median(t for _, t in a[q])
    ratios.append(ta / tb)
    print(f"| {q} | {b[q][0][0]} | {a[q][0][0]} | {tb:.3f} | {ta:.3f} | {ta / tb:.4f} |")
print(f"\ngeometric mean after / before: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.4f}")
PY
