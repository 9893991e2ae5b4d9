#!/usr/bin/env bash
# Everything the GPU machine checks and measures, in one invocation:
#   scripts/gpu-run.sh BIN_DIR WATDIV_DIR SCALE OUT_DIR
# BIN_DIR holds gsparql and gpu_tests (scripts/package-portable.sh); WATDIV_DIR
# is laid out like ../shared/datasets/watdiv (sfN.nt.zst, queries/sfN,
# expected/sfN/expected.tsv). Full logs go to OUT_DIR; a short table comes last.
set -uo pipefail
bin=$1 watdiv=$2 scale=$3 out=$4
mkdir -p "$out"
cd "$(dirname "$0")/.."
log() { echo "== $*"; }

log "GPU"; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$out/gpu.txt"
log "GPU tests (GPU executor vs CPU executor)"
GSPARQL_TEST_DATA=tests/data "$bin/gpu_tests" > "$out/gpu_tests.log" 2>&1
tests_status=$?
tail -3 "$out/gpu_tests.log"

db=$(mktemp -d /tmp/gsparql-gpu-run.XXXXXX)/db
log "load WatDiv SF$scale"; "$bin/gsparql" load --quiet --db "$db" "$watdiv/sf$scale.nt.zst" | tee "$out/load.txt"
sync  # the database's pages reach the disk now, not during the first benchmark
log "reference answers, GPU backend"
GSPARQL="$bin/gsparql" WATDIV="$watdiv" DB="$db" benchmarks/check_watdiv.sh "$scale" gpu > "$out/check_gpu.txt" 2>&1
tail -1 "$out/check_gpu.txt"

queries="$watdiv/queries/sf$scale"
bench() {  # NAME ARGS... (queries from $bench_queries)
  local name=$1; shift
  log "bench $name: gsparql bench --db DB --queries $bench_queries $*"
  "$bin/gsparql" bench --db "$db" --queries "$bench_queries" "$@" > "$out/bench_$name.csv" 2>&1 || echo "bench $name failed"
}
bench_queries=$queries
bench gpu_warm --backend gpu --repeat 5
bench gpu_cold --backend gpu --repeat 3 --cold
bench cpu --backend cpu --repeat 3
bench no_fusion --backend gpu --repeat 5 --ablation no-fusion
bench plain_csr --backend gpu --repeat 5 --ablation plain-csr
bench two_pass --backend gpu --repeat 5 --ablation two-pass
bench naive_set_ops --backend gpu --repeat 5 --ablation naive-set-ops
bench_queries=benchmarks/queries/variable-predicates
bench vp_gpu --backend gpu --repeat 5
bench vp_cpu --backend cpu --repeat 5
bench vp_gpu_cold --backend gpu --repeat 3 --cold

log "plans with per-step GPU times: each query twice in one session, cold then warm"
for q in L2_01 S1_01 F5_01 C1_01 C2_01 C3_01; do
  [ -f "$queries/$q.rq" ] || continue
  echo "-- $q"
  { printf '.explain on\n.timer on\n.format tsv\n'; cat "$queries/$q.rq"; echo ';'; cat "$queries/$q.rq"; echo ';'; } \
    | "$bin/gsparql" repl --db "$db" --backend gpu 2>&1 | grep -vE '^(<|"|\?v)'
done > "$out/explain.txt" 2>&1

runs=(gpu_warm="$out/bench_gpu_warm.csv" gpu_cold="$out/bench_gpu_cold.csv" cpu="$out/bench_cpu.csv"
      no_fusion="$out/bench_no_fusion.csv" plain_csr="$out/bench_plain_csr.csv" two_pass="$out/bench_two_pass.csv" naive_set_ops="$out/bench_naive_set_ops.csv")
log "summary: median ms per template, every row decoded to terms (ratios relative to gpu_warm;"
log "the ablations run without step fusion, so compare them with no_fusion)"
python3 benchmarks/summarize_bench.py "$watdiv/expected/sf$scale/expected.tsv" "${runs[@]}" | tee "$out/summary.csv"
log "summary: median ms per template up to the id table on the host, before decoding"
python3 benchmarks/summarize_bench.py --engine "$watdiv/expected/sf$scale/expected.tsv" "${runs[@]}" \
  | tee "$out/summary_engine.csv"
log "predicate variables (benchmarks/queries/variable-predicates), warm, GPU then CPU executor"
for backend in gpu cpu; do grep -A20 '^template,' "$out/bench_vp_$backend.csv"; done
log "plans"; cat "$out/explain.txt"
echo "gpu_tests exit status: $tests_status"
