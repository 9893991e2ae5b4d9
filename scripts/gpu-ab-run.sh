#!/usr/bin/env bash
# Before/after on the GPU machine in interleaved rounds, so that the drift of
# a noisy machine falls on both binaries alike:
#   scripts/gpu-ab-run.sh AFTER_BIN BEFORE_BIN WATDIV_TOOL WATDIV_QUERIES OUT_DIR [ROUNDS]
# AFTER_BIN and BEFORE_BIN hold a gsparql each (scripts/package-portable.sh);
# WATDIV_TOOL is ../shared/tools/watdiv; WATDIV_QUERIES is laid out like
# ../shared/datasets/watdiv without the data. WatDiv SF100 is generated here
# and loaded once by AFTER_BIN; both read the same database. Each round runs
# the whole query set on both binaries, in the order ABBA, on the GPU and
# the CPU executor; benchmarks/ab_bench.py pools the rounds. OUT_DIR gets the
# summaries and, in bench-csv.tar.gz, every round's raw output.
set -uo pipefail
after=$1 before=$2 tool=$3 watdiv=$4 out=$5 rounds=${6:-4}
mkdir -p "$out"
cd "$(dirname "$0")/.."
log() { echo "== $*"; }

log "GPU"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
work=$(mktemp -d /tmp/gsparql-ab.XXXXXX)
csv=$work/csv
mkdir -p "$csv"
cp -r "$tool" "$work/watdiv-tool"  # the generator writes beside itself
db=$work/db
log "generate WatDiv SF100 and load it"
{ time "$work/watdiv-tool/generate.sh" data 100 | "$after/gsparql" load --quiet --db "$db" - ; } 2>&1 | tee "$out/load.txt"
sync

wq=$watdiv/queries/sf100
bench() {  # NAME BIN BACKEND REPEAT
  "$2/gsparql" bench --db "$db" --queries "$wq" --backend "$3" --repeat "$4" > "$csv/$1.csv" 2>&1 || echo "bench $1 failed"
}
for backend in gpu cpu; do
  repeat=5; [ "$backend" = cpu ] && repeat=3
  for ((r = 1; r <= rounds; r++)); do
    log "round $r on $backend: before, after, after, before"
    bench "before_${backend}_${r}a" "$before" "$backend" "$repeat"
    bench "after_${backend}_${r}a" "$after" "$backend" "$repeat"
    bench "after_${backend}_${r}b" "$after" "$backend" "$repeat"
    bench "before_${backend}_${r}b" "$before" "$backend" "$repeat"
  done
done

expected=$watdiv/expected/sf100/expected.tsv
files() { ls "$csv"/$1_*.csv | paste -sd, -; }
for backend in gpu cpu; do
  for measure in "" --engine; do
    log "WatDiv SF100 on the $backend executor, before vs after${measure:+ (engine time, before decoding)}"
    python3 benchmarks/ab_bench.py $measure "$expected" before="$(files before_$backend)" after="$(files after_$backend)" \
      | tee "$out/summary_${backend}${measure:+_engine}.csv"
  done
done
tar -czf "$out/bench-csv.tar.gz" -C "$work" csv
rm -rf "$work"
