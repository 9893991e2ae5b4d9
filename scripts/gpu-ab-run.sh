#!/usr/bin/env bash
# Before/after on the GPU machine in interleaved rounds, so that the drift of
# a noisy machine falls on both binaries alike:
#   scripts/gpu-ab-run.sh AFTER_BIN BEFORE_BIN WATDIV_TOOL WATDIV_QUERIES OUT_DIR [ROUNDS]
# AFTER_BIN and BEFORE_BIN hold a gsparql each (scripts/package-portable.sh);
# WATDIV_TOOL is ../shared/tools/watdiv; WATDIV_QUERIES is laid out like
# ../shared/datasets/watdiv without the data. WatDiv SF100 is generated here
# and loaded by each binary into its own database (so a change of the storage
# format or the loader is measured too: load time and size in load.txt;
# AB_BEFORE_LOADER=DIR loads the before side's database with another binary,
# e.g. an older one, to measure one binary on two storage formats).
# Each round runs the whole query set on both binaries, in the order ABBA, on
# the GPU executor warm and cold (adjacency uploaded per query) and on the CPU
# executor; benchmarks/ab_bench.py pools the rounds. OUT_DIR gets the
# summaries and, in bench-csv.tar.gz, every round's raw output.
# AB_QUERIES=FOLDER benches those queries instead of WatDiv's (no reference
# answers: their rows are compared between the two sides only).
# AB_BACKENDS lists the executors (default "gpu cpu"); NAME-cold (gpu-cold,
# cpu-cold) opens the database afresh for every timed run (bench --cold), so
# that what a query does first is timed too: the GPU's adjacency uploads, the
# checks of the blocks it reads (docs/reliability.md, "Damaged files").
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
log "generate WatDiv SF100"
"$work/watdiv-tool/generate.sh" data 100 > "$work/sf100.nt"
for side in before after; do
  bin=$after; [ "$side" = before ] && bin=${AB_BEFORE_LOADER:-$before}
  { log "$side: gsparql load"; time "$bin/gsparql" load --quiet --db "$work/db_$side" "$work/sf100.nt"
    du -b "$work/db_$side"/gen-*/* | sed "s|$work/||"; du -sh "$work/db_$side"; } 2>&1 | tee -a "$out/load.txt"
done
rm "$work/sf100.nt"
sync

wq=${AB_QUERIES:-$watdiv/queries/sf100}
bench() {  # NAME SIDE BACKEND REPEAT
  local bin=$after mode=$3
  [ "$2" = before ] && bin=$before
  [[ $mode == *-cold ]] && mode="${mode%-cold} --cold"
  # shellcheck disable=SC2086
  "$bin/gsparql" bench --db "$work/db_$2" --queries "$wq" --backend $mode --repeat "$4" > "$csv/$1.csv" 2>&1 ||
    echo "bench $1 failed"
}
for backend in ${AB_BACKENDS:-gpu cpu}; do
  repeat=5; [ "$backend" != gpu ] && repeat=3
  for ((r = 1; r <= rounds; r++)); do
    log "round $r on $backend: before, after, after, before"
    bench "before_${backend}_${r}a" before "$backend" "$repeat"
    bench "after_${backend}_${r}a" after "$backend" "$repeat"
    bench "after_${backend}_${r}b" after "$backend" "$repeat"
    bench "before_${backend}_${r}b" before "$backend" "$repeat"
  done
done

expected=$watdiv/expected/sf100/expected.tsv
if [[ -n ${AB_QUERIES:-} ]]; then expected=$work/no-reference.tsv && printf 'query\trows\n' > "$expected"; fi
files() { ls "$csv"/$1_*.csv | paste -sd, -; }
for backend in ${AB_BACKENDS:-gpu cpu}; do
  for measure in "" --engine; do
    log "${AB_QUERIES:-WatDiv} on SF100, the $backend executor, before vs after${measure:+ (engine time, before decoding)}"
    python3 benchmarks/ab_bench.py $measure "$expected" before="$(files before_$backend)" after="$(files after_$backend)" \
      | tee "$out/summary_${backend}${measure:+_engine}.csv"
  done
done
if [[ -n ${AB_QUERIES:-} ]]; then
  # Rows are not answers (a count is one row): each query's answer on both sides and every backend, compared.
  log "answers (first row, and a hash of all rows sorted) of each query, before and after, on each backend"
  for f in "$wq"/*.rq; do
    for side in before after; do
      bin=$after; [ "$side" = before ] && bin=$before
      for backend in ${AB_BACKENDS:-gpu cpu}; do
        answer=$("$bin/gsparql" query --db "$work/db_$side" --backend "$backend" --format tsv -f "$f" 2>&1 | tail -n +2 | sort)
        printf '%s\t%s\t%s\t%s\t%s\n' "$(basename "$f" .rq)" "$side" "$backend" "$(head -1 <<< "$answer" | tr '\t' ' ' | cut -c1-60)" \
          "$(sha1sum <<< "$answer" | cut -c1-12)"
      done
    done
  done | tee "$out/answers.tsv"
  awk -F'\t' '{ print $1 "\t" $5 }' "$out/answers.tsv" | sort -u | cut -f1 | uniq -d |
    sed 's/^/answers differ: /' | tee "$out/answers-differ.txt"
  [[ -s $out/answers-differ.txt ]] || echo "answers: the same on both sides and every backend" | tee "$out/answers-differ.txt"
fi
tar -czf "$out/bench-csv.tar.gz" -C "$work" csv
rm -rf "$work"
