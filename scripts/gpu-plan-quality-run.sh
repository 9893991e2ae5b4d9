#!/usr/bin/env bash
# On the GPU machine, issue 10's plan-quality and sampling benchmarks on
# WatDiv SF100, in device calls back to back on one warm machine (/tmp
# survives only while it stays warm):
#   scripts/gpu-plan-quality-run.sh prepare    # unpack the binaries, generate SF100 and load it; the GPU tests beside
#   scripts/gpu-plan-quality-run.sh quality [OPTIMIZERS]
#                                              # plan-quality (chosen vs best of all orders) on the CPU and GPU
#                                              # executors under each --optimizer (default "sampling cost"), over
#                                              # the 191 queries and 100 random BGPs; walk-throughput with both
#   scripts/gpu-plan-quality-run.sh rounds N   # N rounds of bench over {sampling,cost} x {cpu,gpu}, order rotated
#   scripts/gpu-plan-quality-run.sh counts     # the counting queries: where auto places them, and their times
#   scripts/gpu-plan-quality-run.sh calibrate  # gsparql calibrate on the 191 queries, then counts under that model
#   scripts/gpu-plan-quality-run.sh explain BACKEND FILE...
#                                              # each query 6 times in one REPL (warm), timed, the first 2 explained, by this
#                                              # binary and by .carry/base (where carried); nsys's kernel summary of
#                                              # the warm runs where nsys is installed
# Carry .carry/gsparql.txz (scripts/package-portable.sh), .carry/watdiv-tool
# (../shared/tools/watdiv) and .carry/watdiv-check (queries/sf100 and
# expected/sf100 of ../shared/datasets/watdiv). Output under $OUT.
set -uo pipefail
source scripts/gpu-sf100-env.sh
git log -1 --format="commit %H %s" > "$OUT/machine.txt" 2>/dev/null
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; } >> "$OUT/machine.txt"
timed() {  # file command...
  local file=$1
  shift
  echo "== ${*#"$bin/"}" > "$OUT/$file"
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$@" >> "$OUT/$file" 2>&1
}
case ${1:-} in
  prepare)
    (GSPARQL_TEST_DATA=tests/data "$bin/gpu_tests" > "$OUT/gpu_tests.log" 2>&1; echo "gpu_tests exit $?" >> "$OUT/gpu_tests.log") &
    tests=$!
    rm -rf "$db" && .carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
    "$bin/gsparql" load --quiet --db "$db" /tmp/sf100.nt | tee "$OUT/load.txt"
    GSPARQL=$bin/gsparql WATDIV=.carry/watdiv-check DB=$db benchmarks/check_watdiv.sh 100 cpu > "$OUT/check.txt" 2>&1
    tail -2 "$OUT/check.txt"
    wait "$tests"
    tail -3 "$OUT/gpu_tests.log"
    ;;
  quality)
    for backend in cpu gpu; do
      for optimizer in ${2:-sampling cost}; do
        timed "plan-quality-$backend-$optimizer.csv" "$bin/plan-quality" --db "$db" --queries "$queries" --random 100 \
          --seed 1 --timeout 0.5 --backend "$backend" --optimizer "$optimizer"
        echo "== $backend $optimizer"
        sed -n '/^set,which/,$p' "$OUT/plan-quality-$backend-$optimizer.csv"
      done
    done
    if [[ -z ${2:-} ]]; then
      timed walk-throughput.csv "$bin/walk-throughput" --db "$db" --queries "$queries" --random 100 --seed 1
      sed -n '/^estimator,walks/,$p' "$OUT/walk-throughput.csv"
    fi
    ;;
  rounds)
    configs=(sampling-cpu cost-cpu sampling-gpu cost-gpu)
    mkdir -p "$OUT/rounds"
    for round in $(seq 1 "${2:-4}"); do
      for k in 0 1 2 3; do
        config=${configs[$(((k + round - 1) % 4))]}
        "$bin/gsparql" bench --db "$db" --queries "$queries" --repeat 3 --backend "${config#*-}" \
          --optimizer "${config%-*}" > "$OUT/rounds/$config-$round.csv" 2>&1
      done
    done
    python3 benchmarks/summarize_rounds.py "$OUT/rounds" 2>&1 | tee "$OUT/rounds.txt"
    ;;
  counts)
    benchmarks/count_placement.sh "$bin/gsparql" "$db" | tee "$OUT/counts.txt"
    ;;
  calibrate)
    timed calibrate.txt "$bin/gsparql" calibrate --db "$db" --queries "$queries" --out "$OUT/cost-model"
    cat "$OUT/calibrate.txt"
    benchmarks/count_placement.sh "$bin/gsparql" "$db" --cost-model "$OUT/cost-model" | tee "$OUT/counts-calibrated.txt"
    ;;
  explain)
    backend=$2
    export PATH=$PATH:/usr/local/cuda/bin
    shift 2
    [[ -d .carry/base || ! -f .carry/base.txz ]] || { mkdir -p .carry/base && tar xJf .carry/base.txz -C .carry/base --strip-components=1; }
    for side in "$bin" .carry/base; do
      [[ -x $side/gsparql ]] || continue
      for q in "$@"; do
        name=$(basename "$q" .rq)-$backend-$(basename "$side")
        { printf '.backend %s\n.timer on\n.explain on\n' "$backend"; for r in 1 2 3 4 5 6; do
          [[ $r = 3 ]] && echo '.explain off'; cat "$q"; echo ';'; done; } > "/tmp/$name.repl"
        "$side/gsparql" repl --db "$db" < "/tmp/$name.repl" > "$OUT/explain-$name.txt" 2>&1
        if command -v nsys > /dev/null; then
          nsys profile -o "/tmp/$name" --force-overwrite true "$side/gsparql" repl --db "$db" < "/tmp/$name.repl" > /dev/null 2>&1
          nsys stats --report cuda_gpu_kern_sum,cuda_api_sum "/tmp/$name.nsys-rep" > "$OUT/nsys-$name.txt" 2>&1
        fi
      done
    done
    ;;
  *) echo "usage: $0 prepare | quality | rounds N | counts | calibrate | explain BACKEND FILE..." >&2; exit 2 ;;
esac
