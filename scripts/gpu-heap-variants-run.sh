#!/usr/bin/env bash
# On a GPU machine: whether the allocator's settings of the command-line
# program (platform/heap_settings.h) change warm queries, and the operator
# queries before and after, in interleaved rounds. Carry
# .carry/gsparql-serve.txz holding gsparql/{gsparql,gsparql-before,gpu_tests,lib}
# and .carry/watdiv-tool, .carry/watdiv-sf100 (queries/, expected/). Variants:
# before (the before build), tunables (the before build with the same
# settings given as GLIBC_TUNABLES) and after (this build). Output under
# $OUT as one archive.
#   scripts/gpu-heap-variants-run.sh [ROUNDS]
set -uo pipefail
source scripts/carried-serve-env.sh
rounds=${1:-3}
before=$root/.carry/gsparql/gsparql-before
tunables=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864
R=/tmp/heap-variants && rm -rf "$R" && mkdir -p "$R/csv"
{ nproc; nvidia-smi -L; } > "$R/machine.txt" 2>&1
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
run() {  # VARIANT ARGS...: gsparql as that variant
  local variant=$1; shift
  case $variant in
    before) "$before" "$@" ;;
    tunables) GLIBC_TUNABLES=$tunables "$before" "$@" ;;
    after) "$GSPARQL" "$@" ;;
  esac
}
variants=(before tunables after)
for ((round = 1; round <= rounds; round++)); do
  for ((k = 0; k < 3; k++)); do
    v=${variants[$(((round + k) % 3))]}
    echo "== round $round: $v"
    run "$v" bench --db /tmp/db --queries .carry/watdiv-sf100/queries --backend cpu --repeat 3 \
      > "$R/csv/watdiv-cpu-$v-$round.csv" 2>&1
    run "$v" bench --db /tmp/db --queries benchmarks/queries/operators --backend cpu,gpu --repeat 5 \
      > "$R/csv/operators-$v-$round.csv" 2>&1
  done
done
files() { ls "$R"/csv/$1-$2-*.csv | paste -sd, -; }
expected=.carry/watdiv-sf100/expected/expected.tsv
for v in tunables after; do
  echo "== WatDiv SF100, CPU executor, warm: before vs $v"
  python3 benchmarks/ab_bench.py "$expected" before="$(files watdiv-cpu before)" after="$(files watdiv-cpu $v)" \
    > "$R/watdiv-cpu-before-vs-$v.txt"
  tail -3 "$R/watdiv-cpu-before-vs-$v.txt"
done
tar czf "${OUT:-/tmp}/heap-variants.tgz" -C "$R" .
