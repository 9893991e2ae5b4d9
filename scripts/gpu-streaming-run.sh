#!/usr/bin/env bash
# Adjacency streamed to the GPU in key ranges (issue 11, section 3), on the GPU
# machine, in two device calls back to back (10 minutes each; /tmp survives
# only while the machine stays warm):
#   scripts/gpu-streaming-run.sh check   # the GPU tests; every WatDiv SF10 query with --gpu-memory 4M against
#                                        # the reference answers, and what it streamed; meanwhile WatDiv SF1000
#                                        # is generated, piped into the loader, and one query per template made
#   scripts/gpu-streaming-run.sh bench   # SF1000's 20 queries with the whole adjacency resident and with a GPU
#                                        # memory budget of a quarter of the adjacency (ABBA rounds of gsparql
#                                        # bench), and per query in a fresh process: copy time, time waited
# Carry .carry/gsparql (scripts/package-portable.sh), .carry/watdiv-tool and .carry/watdiv-check (queries/ and
# expected/ of ../shared/datasets/watdiv for sf10). Output under $OUT.
set -uo pipefail
C=$PWD/.carry/gsparql
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
case ${1:-} in
  check)
    { nproc; free -g | head -2; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; } \
      > "$OUT/machine.txt" 2>&1
    rm -rf /tmp/wd1000 /tmp/db1000 /tmp/q1000 /tmp/check && cp -r .carry/watdiv-tool /tmp/wd1000
    mkdir -p /tmp/check/watdiv /tmp/q1000
    (t=$SECONDS
     /tmp/wd1000/generate.sh data 1000 | "$C/gsparql" load --quiet --verbose --db /tmp/db1000 - > "$OUT/load-sf1000.txt" 2>&1
     echo "generated and loaded SF1000 in $((SECONDS - t)) s" >> "$OUT/load-sf1000.txt"
     for template in /tmp/wd1000/templates/*.txt; do
       name=$(basename "$template" .txt)
       /tmp/wd1000/generate.sh queries 1000 "$name" 1 | awk -v f="/tmp/q1000/${name}_01.rq" 'BEGIN { RS = "" } NR == 1 { print > f }'
     done) &
    sf1000=$!
    GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators "$C/gpu_tests" \
      > "$OUT/gpu_tests.log" 2>&1
    echo "gpu_tests exit $?" >> "$OUT/gpu_tests.log"
    tail -4 "$OUT/gpu_tests.log"
    ln -sfn "$PWD/.carry/watdiv-check/queries" /tmp/check/watdiv/queries
    ln -sfn "$PWD/.carry/watdiv-check/expected" /tmp/check/watdiv/expected
    /tmp/wd1000/generate.sh data 10 | "$C/gsparql" load --quiet --db /tmp/check/db10 -
    GSPARQL=$C/gsparql WATDIV=/tmp/check/watdiv DB=/tmp/check/db10 QUERY_ARGS="--gpu-memory 4M" \
      timeout 300 benchmarks/check_watdiv.sh 10 gpu 2>&1 | tee "$OUT/check-sf10-gpu-4M.txt" | tail -3
    for q in .carry/watdiv-check/queries/sf10/*.rq; do
      echo "$(basename "$q" .rq) $("$C/gsparql" query --db /tmp/check/db10 --backend gpu --gpu-memory 4M --explain -f "$q" 2>&1 \
        >/dev/null | grep -o '[0-9]* adjacency(s) streamed[^;]*' | head -1)"
    done > "$OUT/streamed-sf10-4M.txt"
    echo "SF10 queries that streamed: $(grep -c streamed "$OUT/streamed-sf10-4M.txt") of $(wc -l < "$OUT/streamed-sf10-4M.txt")"
    wait "$sf1000"
    tail -3 "$OUT/load-sf1000.txt"
    cp -r /tmp/q1000 "$OUT/queries"
    ;;
  bench)
    adjacency=$(du -cb /tmp/db1000/gen-*/*.pcsr | tail -1 | cut -f1)
    quarter=$((adjacency / ${DIVISOR:-4}))  # DIVISOR=16: a sixteenth instead
    echo "adjacency: $adjacency bytes; budget: --gpu-memory $quarter" | tee "$OUT/budget.txt"
    for round in resident streamed streamed resident; do
      limit=""; [ "$round" = streamed ] && limit="--gpu-memory $quarter"
      echo "== $round: gsparql bench --db DB --queries Q --repeat 5 --backend gpu $limit"
      # shellcheck disable=SC2086
      timeout 120 "$C/gsparql" bench --db /tmp/db1000 --queries /tmp/q1000 --repeat 5 --backend gpu $limit 2>&1
    done > "$OUT/bench.txt"
    echo "query,copy_ms,waited_ms,note" > "$OUT/transfers.csv"
    for q in /tmp/q1000/*.rq; do
      note=$("$C/gsparql" query --db /tmp/db1000 --backend gpu --gpu-memory "$quarter" --explain -f "$q" 2>&1 >/dev/null \
        | grep -o '[0-9]* adjacency(s) streamed[^;]*' | head -1)
      copy=$(echo "$note" | sed -n 's/.*copies took \([0-9.]*\) ms.*/\1/p')
      waited=$(echo "$note" | sed -n 's/.*waited \([0-9.]*\) ms.*/\1/p')
      echo "$(basename "$q" .rq),${copy:-0},${waited:-0},\"$note\""
    done >> "$OUT/transfers.csv"
    python3 benchmarks/streaming_summary.py "$OUT/bench.txt" "$OUT/transfers.csv" | tee "$OUT/summary.txt"
    ;;
  *) echo "usage: $0 check | bench" >&2; exit 2 ;;
esac
