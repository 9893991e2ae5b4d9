#!/usr/bin/env bash
# The operator-tree checks and measurements on the GPU machine, in one call:
#   scripts/gpu-operators-run.sh AFTER_BIN BEFORE_BIN WATDIV_TOOL WATDIV_QUERIES OUT_DIR
# AFTER_BIN holds gsparql and gpu_tests of this tree, BEFORE_BIN the gsparql
# of the commit before the operator tree (both scripts/package-portable.sh);
# WATDIV_TOOL is ../shared/tools/watdiv; WATDIV_QUERIES is laid out like
# ../shared/datasets/watdiv without the data (queries/sf100,
# expected/sf100/expected.tsv). The data is generated here (WatDiv SF100) and
# loaded once; both binaries read the same database.
set -uo pipefail
after=$1 before=$2 tool=$3 watdiv=$4 out=$5
mkdir -p "$out"
cd "$(dirname "$0")/.."
log() { echo "== $*"; }

log "GPU"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
log "GPU tests (GPU executor vs CPU executor, operator queries included)"
GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators \
  "$after/gpu_tests" > "$out/gpu_tests.log" 2>&1
tests_status=$?
tail -3 "$out/gpu_tests.log"

work=$(mktemp -d /tmp/gsparql-operators.XXXXXX)
cp -r "$tool" "$work/watdiv-tool"  # the generator writes beside itself
db=$work/db
log "generate WatDiv SF100 and load it"
{ time "$work/watdiv-tool/generate.sh" data 100 | "$after/gsparql" load --quiet --db "$db" - ; } 2>&1 | tee "$out/load.txt"
sync
log "reference answers, GPU backend"
GSPARQL="$after/gsparql" WATDIV="$watdiv" DB="$db" benchmarks/check_watdiv.sh 100 gpu > "$out/check_gpu.txt" 2>&1
tail -1 "$out/check_gpu.txt"

bench() {  # NAME BIN QUERIES ARGS...
  local name=$1 bin=$2 queries=$3; shift 3
  log "bench $name: gsparql bench --db DB --queries $queries $*"
  "$bin/gsparql" bench --db "$db" --queries "$queries" "$@" > "$out/bench_$name.csv" 2>&1 || echo "bench $name failed"
}
wq=$watdiv/queries/sf100
bench before_gpu "$before" "$wq" --backend gpu --repeat 5
bench after_gpu "$after" "$wq" --backend gpu --repeat 5
bench before_cpu "$before" "$wq" --backend cpu --repeat 3
bench after_cpu "$after" "$wq" --backend cpu --repeat 3
oq=benchmarks/queries/operators
bench operators_gpu "$after" "$oq" --backend gpu --repeat 3
bench operators_cpu "$after" "$oq" --backend cpu --repeat 3

log "operator queries: --explain on each backend"
for q in "$oq"/*.rq; do
  for backend in gpu cpu; do
    echo "-- $(basename "$q") on $backend"
    "$after/gsparql" query --db "$db" --backend "$backend" --explain --time -f "$q" 2>&1 >/dev/null
  done
done > "$out/explain_operators.txt" 2>&1

expected=$watdiv/expected/sf100/expected.tsv
log "WatDiv SF100 before and after the operator tree: median ms per template, all rows decoded (ratios: other / before_gpu)"
python3 benchmarks/summarize_bench.py "$expected" before_gpu="$out/bench_before_gpu.csv" after_gpu="$out/bench_after_gpu.csv" \
  before_cpu="$out/bench_before_cpu.csv" after_cpu="$out/bench_after_cpu.csv" | tee "$out/summary_before_after.csv"
log "operator queries, GPU then CPU executor (rows and medians)"
for backend in gpu cpu; do grep -B40 '^template,' "$out/bench_operators_$backend.csv" | grep -v '^template'; done
echo "gpu_tests exit status: $tests_status"
rm -rf "$work"
