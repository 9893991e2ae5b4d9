#!/usr/bin/env bash
# The GPU tests under compute-sanitizer, on the GPU machine:
#   scripts/gpu-sanitizer-run.sh BIN_DIR OUT_DIR [gpu_tests arguments, e.g. -tc='*operator*']
# BIN_DIR holds gpu_tests (scripts/package-portable.sh: .carry/gsparql). Runs
# them under memcheck (with leak checking) and racecheck, writes per tool the
# sanitizer's log (TOOL.log) and the tests' own output (TOOL.tests.log) into
# OUT_DIR, prints each tool's error count, and exits 1 when a tool found an
# error or the tests failed. SANITIZER_TOOLS="racecheck" runs one tool only.
# COMPUTE_SANITIZER names the sanitizer when it is
# neither on PATH nor in /usr/local/cuda/bin.
set -uo pipefail
bin=$(realpath "$1") out=$2; shift 2
mkdir -p "$out"
out=$(realpath "$out")
cd "$(dirname "$0")/.."
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if [ ! -x "$sanitizer" ]; then
  echo "compute-sanitizer not found: set COMPUTE_SANITIZER" >&2
  exit 2
fi
# What gpu_tests reads: the test data and the operator queries of this tree.
export GSPARQL_TEST_DATA=tests/data GSPARQL_OPERATOR_QUERIES=benchmarks/queries/operators

{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$sanitizer" --version | tail -1; } | tee "$out/versions.txt"
failed=0
: > "$out/summary.txt"
for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
  options=(--tool "$tool" --error-exitcode 1 --print-limit 1000 --log-file "$out/$tool.log")
  [ "$tool" = memcheck ] && options+=(--leak-check full)
  start=$SECONDS
  "$sanitizer" "${options[@]}" "$bin/gpu_tests" "$@" > "$out/$tool.tests.log" 2>&1
  status=$?
  # memcheck ends with "ERROR SUMMARY: N errors", racecheck with "RACECHECK SUMMARY: N hazards displayed".
  errors=$(grep -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+' "$out/$tool.log" | tail -1 | grep -oE '[0-9]+$' || echo '?')
  tests=$(grep -E '^\[doctest\] (test cases|assertions)' "$out/$tool.tests.log" | tr -s ' ' | paste -sd ';')
  echo "$tool: $errors errors, exit status $status, $((SECONDS - start)) s; $tests" | tee -a "$out/summary.txt"
  [ "$status" -eq 0 ] && [ "$errors" = 0 ] || failed=1
done
exit "$failed"
