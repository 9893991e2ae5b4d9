#!/usr/bin/env bash
# On the GPU machine: the cost model calibrated there (gsparql calibrate on
# WatDiv SF100's 191 queries), then the queries in rounds (default 6) on
# --backend cpu, gpu and auto, each with --optimizer cost (the calibrated
# model) and sampling (greedy walks; placement by the same model); the
# counting queries placed by auto.
#   [CONFIGS="cost-cpu cost-auto cost-gpu"] scripts/gpu-optimizer-run.sh [ROUNDS]
# (preload-BACKEND: the sampling optimizer with --gpu-preload; interleaved:
# one process running cpu, auto and gpu in turn, bench --backend cpu,auto,gpu)
# GPU tests first, while the data is generated. Carry .carry/gsparql (scripts/package-portable.sh),
# .carry/watdiv-tool (../shared/tools/watdiv) and .carry/watdiv-check (the
# SF100 queries and expected answers). Output under $OUT.
set -uo pipefail
source scripts/gpu-sf100-env.sh
model=$OUT/cost-model
rounds=${1:-6}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/machine.txt"
nproc >> "$OUT/machine.txt"
git log -1 --format="commit %H %s" >> "$OUT/machine.txt" 2>/dev/null
(GSPARQL_TEST_DATA=tests/data "$bin/gpu_tests" > "$OUT/gpu_tests.log" 2>&1; echo "gpu_tests exit $?" >> "$OUT/gpu_tests.log") &
tests=$!
rm -rf "$db"
.carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
"$bin/gsparql" load --quiet --db "$db" /tmp/sf100.nt
wait "$tests"
tail -4 "$OUT/gpu_tests.log"

echo "== gsparql calibrate --db DB --queries $queries --repeat 3 --out cost-model" | tee "$OUT/calibrate.txt"
"$bin/gsparql" calibrate --db "$db" --queries "$queries" --repeat 3 --out "$model" 2>&1 | tee -a "$OUT/calibrate.txt"
cat "$model"

bench() {  # file backend [args...]
  local file=$1 backend=$2
  shift 2
  "$bin/gsparql" bench --db "$db" --queries "$queries" --repeat 3 --backend "$backend" --cost-model "$model" "$@" \
    > "$OUT/$file.csv" 2>&1
}
# The configurations (CONFIGS, default all six), each bench its own process,
# in an order rotated by one every round, so that each configuration takes
# each place in the order once in as many rounds: process-to-process noise
# on this machine is tens of percent.
read -ra configs <<< "${CONFIGS:-cost-cpu cost-auto cost-gpu sampling-cpu sampling-auto sampling-gpu}"
echo "== $rounds rounds of bench --repeat 3 over ${configs[*]}, order rotated each round"
for round in $(seq 1 "$rounds"); do
  for k in "${!configs[@]}"; do
    config=${configs[$(( (k + round - 1) % ${#configs[@]} ))]}
    optimizer=${config%-*}
    if [[ $config == interleaved ]]; then  # cpu, auto and gpu in one process: interleaved-BACKEND-ROUND.csv
      "$bin/gsparql" bench --db "$db" --queries "$queries" --repeat 3 --backend cpu,auto,gpu --cost-model "$model" 2>&1 |
        awk -v out="$OUT" -v round="$round" '/^== --backend/ {file = out "/interleaved-" $3 "-" round ".csv"; next}
                                             file {print > file}'
    elif [[ $optimizer == preload ]]; then  # the sampling optimizer on a GPU preloaded with every predicate
      bench "$config-$round" "${config#*-}" --optimizer sampling --gpu-preload
    else
      bench "$config-$round" "${config#*-}" --optimizer "$optimizer"
    fi
  done
done
echo "== the counting queries: auto's placement and the time on each backend (median of 3)"
benchmarks/count_placement.sh "$bin/gsparql" "$db" --cost-model "$model" | tee "$OUT/counts.txt"
