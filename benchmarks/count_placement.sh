#!/usr/bin/env bash
# The counting queries of benchmarks/queries/counts on --backend auto, cpu
# and gpu: the count, the median of 3 runs' "execute and write" time, and
# where auto placed each BGP (its EXPLAIN note). One CSV line per query and
# backend: query,backend,count,median_ms,placement.
#   benchmarks/count_placement.sh GSPARQL DB [gsparql query options...]
set -uo pipefail
gsparql=$1 db=$2
shift 2
for file in "$(dirname "$0")"/queries/counts/*.rq; do
  for backend in auto cpu gpu; do
    times=""
    for _ in 1 2 3; do
      out=$(timeout 60 "$gsparql" query --db "$db" --format tsv --time --explain --backend "$backend" "$@" -f "$file" 2>&1)
      times="$times $(echo "$out" | sed -n 's/.*execute and write \([0-9.]*\) ms.*/\1/p')"
    done
    placed=$(echo "$out" | grep -o "placed on the [a-z]* executor[^;)]*)" | head -1)
    echo "$(basename "$file" .rq),$backend,$(echo "$out" | sed -n 2p),$(echo $times | tr ' ' '\n' | sort -n | sed -n 2p),$placed"
  done
done
