#!/usr/bin/env bash
# Loader runs on the GPU machine (issue 11), one step per call (10 minutes
# each); the machine keeps /tmp between calls while it stays warm.
#   scripts/gpu-load-run.sh sf100      # facts; SF100 generated, loaded twice; SF1000 generated in the background
#   scripts/gpu-load-run.sh sf1000     # SF1000 (from call 1) loaded from the file
#   scripts/gpu-load-run.sh lubm N     # LUBM(N) generated on all cores and piped into the loader
# Carry .carry/gsparql (scripts/package-portable.sh: gsparql, lubm-generate,
# lib/) and .carry/watdiv-tool (../shared/tools/watdiv). Output under $OUT.
set -uo pipefail
G=$PWD/.carry/gsparql/gsparql
LUBM=$PWD/.carry/gsparql/lubm-generate
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
timed_load() {  # label db args...
  local label=$1 db=$2
  shift 2
  rm -rf "$db"
  echo "== $label: gsparql load --quiet --verbose --memory-budget 48G $*"
  /usr/bin/time -f "wall %e s, peak RSS %M KB, user %U s, sys %S s" "$G" load --quiet --verbose --memory-budget 48G --db "$db" "$@" 2>&1
  du -sh "$db"
}
case ${1:-} in
  sf100)
    { nproc; free -g | head -2; df -h /tmp | tail -1; nvidia-smi --query-gpu=name --format=csv,noheader; } > "$OUT/machine.txt" 2>&1
    t=$SECONDS; .carry/watdiv-tool/generate.sh data 100 > /tmp/sf100.nt
    echo "generate SF100: $((SECONDS - t)) s, $(wc -l < /tmp/sf100.nt) lines" > "$OUT/generate.txt"
    ( t=$SECONDS; .carry/watdiv-tool/generate.sh data 1000 > /tmp/sf1000.nt.part && mv /tmp/sf1000.nt.part /tmp/sf1000.nt
      echo "generate SF1000: $((SECONDS - t)) s" > /tmp/generate-sf1000.txt ) > /dev/null 2>&1 &
    { echo "(the SF1000 generator runs on one core meanwhile)"
      for round in 1 2; do timed_load "SF100 from the file, round $round" /tmp/db100 /tmp/sf100.nt; done
      "$G" info --db /tmp/db100 --verify 2>&1 | tail -2; } > "$OUT/load-sf100.txt"
    ;;
  sf1000)
    cp /tmp/generate-sf1000.txt "$OUT/" 2>/dev/null
    timed_load "SF1000 from the file" /tmp/db1000 /tmp/sf1000.nt > "$OUT/load-sf1000.txt"
    ;;
  lubm)
    n=${2:?number of universities}
    rm -rf /tmp/dblubm
    { echo "== lubm-generate --universities $n | gsparql load --quiet --verbose --memory-budget 48G -"
      /usr/bin/time -f "wall %e s, peak RSS %M KB" bash -c "$LUBM --universities $n | $G load --quiet --verbose --memory-budget 48G --db /tmp/dblubm -" 2>&1
      du -sh /tmp/dblubm; } > "$OUT/load-lubm$n.txt"
    ;;
  *) echo "usage: $0 sf100 | sf1000 | lubm N" >&2; exit 2 ;;
esac
