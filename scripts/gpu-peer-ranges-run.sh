#!/usr/bin/env bash
# Issue 41, graphs larger than one GPU: adjacency too large for a GPU's cache
# read from the GPUs' homes over NVLink (engine/gpu/peer_ranges.cuh) rather
# than streamed from the host, on a machine of two or more GPUs
# (nvidia-h200-x2). The GPU tests of streaming and homes; then WatDiv SF100
# with each GPU's memory limited so that most queries stream, in two
# configurations:
#   small  --gpu-memory a sixteenth of the adjacency (its cache a quarter of
#          that) and homes of half the adjacency each: ranges larger than the
#          cache copies, read in place
#   even   --gpu-memory a quarter of the adjacency, homes of the default size
#          (a quarter of it, as large as the cache): ranges copied into the cache
# For each, every query's rows with the homes against the reference answers
# (small only), what the first query of each template read where (EXPLAIN),
# and interleaved rounds of gsparql bench on both GPUs streaming from the host
# (--gpu-peer-memory 0: host) and from the homes (peers), compared by
# benchmarks/ab_bench.py. Carry .carry/gsparql-serve.txz (gsparql, gpu_tests
# and lib/: scripts/package-portable.sh), .carry/watdiv-tool and
# .carry/watdiv-sf100 (queries/ and expected/ of ../shared/datasets/watdiv for
# sf100). Output under $OUT: the summaries, and every file in peer-ranges.tar.xz.
#   OUT=DIR scripts/gpu-peer-ranges-run.sh [ROUNDS]
set -uo pipefail
source scripts/carried-serve-env.sh
rounds=${1:-2}
bin=$(dirname "$GSPARQL")
OUT=${OUT:-/tmp/peer-ranges-out} && mkdir -p "$OUT"
R=/tmp/peer-ranges && rm -rf "$R" && mkdir -p "$R"
trap 'tar cJf "$OUT/peer-ranges.tar.xz" -C /tmp peer-ranges' EXIT
{ nproc; nvidia-smi -L; nvidia-smi topo -m; } > "$R/machine.txt" 2>&1
GSPARQL_TEST_DATA=tests/data timeout 200 "$bin/gpu_tests" -tc='*homes*,*stream*,*cut over every GPU*' \
  > "$R/gpu-tests.txt" 2>&1
echo "gpu_tests exit $?" >> "$R/gpu-tests.txt"
grep "read the homes" "$R/gpu-tests.txt" | head -8
tail -4 "$R/gpu-tests.txt" | tee "$OUT/gpu-tests-tail.txt"

wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
db=/tmp/peer-db && rm -rf "$db"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db "$db" --quiet - > "$R/load.txt" 2>&1
adjacency=$(du -cb "$db"/gen-*/*.pcsr | tail -1 | cut -f1)
declare -A memory=([small]=$((adjacency / 16)) [even]=$((adjacency / 4)))
declare -A homes=([small]="--gpu-peer-memory $((adjacency / 2))" [even]="")
{
  echo "adjacency: $adjacency bytes"
  for c in small even; do echo "$c: --gpus 0,1 --gpu-memory ${memory[$c]} ${homes[$c]} (host: --gpu-peer-memory 0)"; done
} | tee "$R/budget.txt"
args() {  # CONFIG host|peers
  if [ "$2" = host ]; then echo "--gpus 0,1 --gpu-memory ${memory[$1]} --gpu-peer-memory 0"
  else echo "--gpus 0,1 --gpu-memory ${memory[$1]} ${homes[$1]}"; fi
}

check=/tmp/peer-check/watdiv && mkdir -p "$check/queries" "$check/expected"
ln -sfn "$PWD/.carry/watdiv-sf100/queries" "$check/queries/sf100"
ln -sfn "$PWD/.carry/watdiv-sf100/expected" "$check/expected/sf100"
GSPARQL=$GSPARQL WATDIV=$check DB=$db QUERY_ARGS="$(args small peers)" \
  timeout 120 benchmarks/check_watdiv.sh 100 gpu > "$R/check-small-peers.txt" 2>&1
tail -1 "$R/check-small-peers.txt" | tee "$OUT/check-small-peers.txt"
for c in small even; do
  for q in .carry/watdiv-sf100/queries/*_01.rq; do
    # shellcheck disable=SC2046
    echo "$(basename "$q" .rq): $("$GSPARQL" query --db "$db" --backend gpu $(args "$c" peers) --explain -f "$q" 2>&1 \
      >/dev/null | grep -o '[0-9]* adjacency(s) \(read from\|streamed\)[^;]*;[^;]*' | head -1)"
  done > "$R/explain-$c-peers.txt"
done

for round in $(seq "$rounds"); do
  sides=(host peers)
  [ $((round % 2)) -eq 0 ] && sides=(peers host)
  for c in small even; do
    for side in "${sides[@]}"; do
      # shellcheck disable=SC2046
      timeout 60 "$GSPARQL" bench --db "$db" --queries .carry/watdiv-sf100/queries --repeat 3 --backend gpu \
        $(args "$c" "$side") > "$R/$c-$side-$round.csv" 2> "$R/$c-$side-$round.err"
    done
  done
done
files() { for round in $(seq "$rounds"); do printf '%s,' "$R/$1-$round.csv"; done | sed 's/,$//'; }
for c in small even; do
  python3 benchmarks/ab_bench.py .carry/watdiv-sf100/expected/expected.tsv "host=$(files "$c-host")" \
    "peers=$(files "$c-peers")" > "$R/$c-peers-vs-host.txt" 2>&1
  echo "== $c: peers / host"; cat "$R/$c-peers-vs-host.txt"
done | tee "$OUT/summary.txt"
