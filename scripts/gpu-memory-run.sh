#!/usr/bin/env bash
# On the GPU machine: the GPU tests (GPU executor against the CPU executor,
# also in a few MB of device memory), then the counting queries of
# benchmarks/queries/counts on WatDiv SF100 generated there: counted and
# enumerated on both executors (benchmarks/count_bench.sh), and counted on
# the GPU under --gpu-memory limits, with the process's peak device memory.
# Carry .carry/gsparql (scripts/package-portable.sh) and .carry/watdiv-tool
# (../shared/tools/watdiv). Output under $OUT.
#   scripts/gpu-memory-run.sh            # SF100, with the GPU tests
#   scripts/gpu-memory-run.sh 1000 1     # SF1000 piped from the generator into the loader, no tests,
#                                        # counts median of 1, limits none and 4G only
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
scale=${1:-100}
repeat=${2:-3}
bin=$PWD/.carry/gsparql
db=/tmp/sf${scale}db
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
rm -rf "$db"
if [ "$scale" = 100 ]; then
  echo "== GPU tests, while WatDiv SF100 is generated and loaded"
  (GSPARQL_TEST_DATA=tests/data "$bin/gpu_tests" > "$OUT/gpu_tests.log" 2>&1; echo "gpu_tests exit $?" >> "$OUT/gpu_tests.log") &
  tests=$!
  .carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
  "$bin/gsparql" load --quiet --db "$db" /tmp/sf100.nt
  wait "$tests"
  tail -4 "$OUT/gpu_tests.log"
  limits="none 4G 512M 64M"
else
  echo "== WatDiv SF$scale generated and piped into the loader"
  /usr/bin/time -f "wall %e s" bash -c ".carry/watdiv-tool/generate.sh data $scale | $bin/gsparql load --quiet --db $db -"
  limits="none 4G"
fi
echo "== counted and enumerated"
GSPARQL=$bin/gsparql timeout 300 benchmarks/count_bench.sh "$db" "$repeat" "cpu gpu" 5 | tee "$OUT/count.txt"

# The largest device memory the process held while QUERY ran, sampled every 20 ms.
peak_run() {  # label args...
  local label=$1 samples=/tmp/gpu-samples.txt
  shift
  nvidia-smi --query-compute-apps=used_memory --format=csv,noheader,nounits -lms 20 > "$samples" &
  local sampler=$!
  local out
  out=$(timeout 60 "$bin/gsparql" query --db "$db" --format tsv --time --explain "$@" 2>&1)
  kill "$sampler"
  wait "$sampler" 2>/dev/null
  local count ms peak note
  count=$(echo "$out" | sed -n 2p | sed 's/"//g; s/\^\^.*//')
  ms=$(echo "$out" | sed -n 's/.*execute and write \([0-9.]*\) ms.*/\1/p')
  peak=$(sort -n "$samples" | tail -1)
  note=$(echo "$out" | grep -o "[0-9]* step(s) too large[^;]*" | head -1)
  echo "$label,$count,$ms,${peak:-0},${note:-not sliced}"
  echo "$out" | grep -i "error" | head -2
}
echo "== counted on the GPU under --gpu-memory (peak MiB: the whole process, CUDA context included)"
{
  echo "query,gpu_memory,count,execute_ms,peak_device_MiB,depth_first"
  for file in benchmarks/queries/counts/*.rq; do
    name=$(basename "$file" .rq)
    for memory in $limits; do
      if [ "$memory" = none ]; then
        peak_run "$name,none" --backend gpu -f "$file"
      else
        peak_run "$name,$memory" --backend gpu --gpu-memory "$memory" -f "$file"
      fi
    done
  done
} | tee "$OUT/gpu_memory.csv"
