#!/usr/bin/env bash
# On a GPU machine with several GPUs (nvidia-h200-x2 or -x4): every GPU of
# the host on one query and on many (issue 41). Carry .carry/gsparql.txz
# (scripts/package-portable.sh) and, per mode, .carry/watdiv-tool, .carry/wrk
# and .carry/haproxy (Debian's haproxy and the libraries it loads). Output under $OUT.
#   scripts/gpu-multi-run.sh tests               # gpu_tests, every GPU in use
#   scripts/gpu-multi-run.sh heavy [SCALE]       # WatDiv SCALE (100): heavy BGPs on 1, 2, ... GPUs, ABBA rounds
#   scripts/gpu-multi-run.sh serve [SECONDS]     # the server on 1..N GPUs, then one replica per GPU behind HAProxy
#   scripts/gpu-multi-run.sh first [SCALE]       # the first query of a process against warm (benchmarks/first_query.py)
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source scripts/carried-serve-env.sh
G=$GSPARQL
gpus=$(nvidia-smi -L | wc -l)
counts=$(seq 1 "$gpus" | awk '$1 == 1 || $1 == 2 || $1 == 4 || $1 == 8' | tr '\n' ' ')
{ nproc; nvidia-smi -L; nvidia-smi topo -m; } > "$OUT/machine.txt" 2>&1
echo "GPUs: $gpus; measured with --gpus $counts"

watdiv_db() {  # SCALE: WatDiv SCALE generated and loaded once, in /tmp/sfSCALEdb (its path printed)
  local scale=$1 db=/tmp/sf${1}db
  if [ ! -f "$db/CURRENT" ]; then
    wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
    t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/sf$scale.nt"
    echo "generate SF$scale: $((SECONDS - t)) s" >> "$OUT/generate.txt"
    t=$SECONDS; "$G" load --db "$db" --quiet "/tmp/sf$scale.nt" >> "$OUT/generate.txt" 2>&1 && rm "/tmp/sf$scale.nt"
    echo "load SF$scale: $((SECONDS - t)) s" >> "$OUT/generate.txt"
  fi
  echo "$db"
}

case "${1:-tests}" in
  tests)
    export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators
    { time timeout "${TEST_SECONDS:-500}" .carry/gsparql/gpu_tests; } 2>&1 | tail -40 | tee "$OUT/gpu-tests.txt"
    ;;
  heavy)
    scale=${2:-100}
    db=$(watdiv_db "$scale")
    # The heavy queries as COUNT(*) (the GPU's work alone) and as written (every row decoded on the CPU too).
    forms=/tmp/heavy-forms && rm -rf "$forms" && mkdir -p "$forms/count" "$forms/rows"
    for f in benchmarks/queries/heavy/*.rq benchmarks/queries/multi_gpu/*.rq; do
      sed -E 's/SELECT \* WHERE/SELECT (COUNT(*) AS ?n) WHERE/' "$f" > "$forms/count/$(basename "$f")"
    done
    cp benchmarks/queries/heavy/*.rq "$forms/rows/"
    cp benchmarks/queries/heavy_counts/*.rq "$forms/count/"
    # A count that takes over 5 s on every GPU would hold the rounds up: left out (and said).
    for f in "$forms"/count/M*.rq; do
      timeout 60 "$G" query --db "$db" --backend gpu --timeout 5 -f "$f" > /dev/null 2>&1 ||
        { echo "left out (over 5 s on $gpus GPUs): $(basename "$f")" | tee -a "$OUT/generate.txt"; rm "$f"; }
    done
    # ABBA: the GPU counts up, then down, in the same process order.
    order="$counts $(echo "$counts" | tr ' ' '\n' | tac | tr '\n' ' ')"
    for form in count rows; do
      round=0
      for n in $order; do
        round=$((round + 1))
        echo "== round $round: gsparql bench --db DB --queries $form --repeat 3 --timeout 20 --backend gpu --gpu-preload --gpus $n"
        timeout 240 "$G" bench --db "$db" --queries "$forms/$form" --repeat 3 --timeout 20 --backend gpu --gpu-preload --gpus "$n" 2>&1
      done > "$OUT/bench-$form.txt"
    done
    for f in "$forms"/count/*.rq; do
      echo "== $(basename "$f"), --gpus $gpus"
      "$G" query --db "$db" --backend gpu --explain -f "$f" 2>&1 | grep -E "chunks|GPU|BgpCount|rows" | head -8
    done > "$OUT/explain-count.txt"
    python3 benchmarks/multi_gpu_compare.py "$OUT"/bench-count.txt "$OUT"/bench-rows.txt | tee "$OUT/summary.txt"
    ;;
  first)  # issue 44: the first query of a process against the same query warm, on one GPU
    db=$(watdiv_db "${2:-100}")
    for backend in cpu gpu; do
      CUDA_VISIBLE_DEVICES=0 GSPARQL=$G python3 benchmarks/first_query.py "$db" benchmarks/queries/heavy_counts \
        --backend "$backend" 2>&1 | tee "$OUT/first-query-$backend.txt"
    done
    ;;
  serve)
    seconds=${2:-20}
    "$G" load --db /tmp/sf1 --quiet tests/data/watdiv/sf1.nt.zst
    for n in $counts; do
      for backend in gpu auto; do
        SERVE_ARGS="--backend $backend --gpus $n" benchmarks/server_load.sh 64 "$seconds" /tmp/sf1 \
          > "$OUT/serve-$backend-gpus$n.txt" 2>&1
        echo "serve --backend $backend --gpus $n: $(grep -E 'queries/s' "$OUT/serve-$backend-gpus$n.txt")"
      done
    done
    scripts/gpu-replicas-run.sh "$seconds"
    ;;
esac
