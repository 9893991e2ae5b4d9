#!/usr/bin/env bash
# Runs a libFuzzer target on every core of this machine (fork mode) for a
# given time, growing CORPUS, and keeps the whole log:
#   scripts/fuzz-parallel.sh FUZZER CORPUS SECONDS LOG [extra libFuzzer flags]
# FUZZER is a binary built with -DGSPARQL_FUZZ=ON (clang); when its shared
# libraries sit in a lib/ folder beside it (as scripts/package-fuzzers.sh
# leaves them), they are used. Crash inputs land in CORPUS/../artifacts/.
# Prints the executions of the run last: libFuzzer's last progress line.
set -uo pipefail
fuzzer=$(realpath "$1") corpus=$2 seconds=$3 log=$4
shift 4
mkdir -p "$corpus" "$(dirname "$corpus")/artifacts"
artifacts=$(realpath "$(dirname "$corpus")/artifacts")
export LD_LIBRARY_PATH="$(dirname "$fuzzer")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
jobs=$(nproc)
{
  echo "# $(basename "$fuzzer"), fork mode on $jobs cores, $seconds s, $(date -u +%FT%TZ), $(uname -n)"
  echo "# corpus at start: $(ls "$corpus" | wc -l) inputs"
} > "$log"
"$fuzzer" -fork="$jobs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$artifacts/" "$@" "$corpus" >> "$log" 2>&1
status=$?
echo "exit=$status" >> "$log"
echo "# corpus at end: $(ls "$corpus" | wc -l) inputs; artifacts: $(ls "$artifacts" | wc -l)" >> "$log"
grep -E '^#[0-9]+' "$log" | tail -1
tail -3 "$log"
exit "$status"
