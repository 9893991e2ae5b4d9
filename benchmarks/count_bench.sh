#!/usr/bin/env bash
# COUNT(*) over BGPs counted where the rows are (BgpCount: products of the
# candidate counts of a plan's independent last steps on the CPU executor;
# component counts multiplied), or COUNT(DISTINCT ?v) marked where the rows
# are, against the same count over enumerated rows (the query with
# FILTER(true) added, which keeps GroupBy over a BgpScan: every solution
# made, then counted), on each executor, in one run.
#   benchmarks/count_bench.sh DB [REPEAT] [BACKENDS] [ENUMERATION_TIMEOUT_S]
#   (defaults: 3 "cpu gpu" 60; queries: $QUERIES/*.rq, by default
#   benchmarks/queries/counts; benchmarks/queries/distinct_counts has
#   COUNT(DISTINCT ?v) ones)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
db=$1
repeat=${2:-3}
backends=${3:-cpu gpu}
timeout_s=${4:-60}
gsparql=${GSPARQL:-build/default/cli/gsparql}
print_run_header "counted: median of $repeat runs; enumerated: one run; both --timeout $timeout_s; ms = execute time of --time"

# DB BACKEND QUERY_FILE [EXTRA...]: "count ms", or "error: ..." on failure.
run_once() {
  local out
  if out=$("$gsparql" query --db "$1" --backend "$2" --time --format tsv "${@:4}" -f "$3" 2>&1); then
    echo "$(echo "$out" | sed -n 2p | sed 's/"//g; s/\^\^.*//') $(echo "$out" | sed -n 's/.*execute and write \([0-9.]*\) ms.*/\1/p')"
  else
    echo "error: $(echo "$out" | tail -1 | tr ',' ';')"
  fi
}
echo "query,backend,count,counted_ms,enumerated_count,enumerated_ms,speedup"
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-count.XXXXXX")
trap 'rm -rf "$work"' EXIT
for file in "${QUERIES:-benchmarks/queries/counts}"/*.rq; do
  name=$(basename "$file" .rq)
  sed 's/} *$/FILTER(true) }/' "$file" > "$work/$name.rq"
  for backend in $backends; do
    counted=$(for _ in $(seq "$repeat"); do run_once "$db" "$backend" "$file" --timeout "$timeout_s"; done | sort -k2 -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
    enumerated=$(run_once "$db" "$backend" "$work/$name.rq" --timeout "$timeout_s")
    read -r count counted_ms <<<"$counted"
    if [[ $counted == error* ]]; then
      echo "$name,$backend,,$counted,,$enumerated,"
    elif [[ $enumerated == error* ]]; then
      echo "$name,$backend,$count,$counted_ms,,$enumerated,"
    else
      read -r enumerated_count enumerated_ms <<<"$enumerated"
      echo "$name,$backend,$count,$counted_ms,$enumerated_count,$enumerated_ms,$(python3 -c "print(f'{$enumerated_ms / $counted_ms:.1f}')")"
    fi
  done
done
