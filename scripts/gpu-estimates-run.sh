#!/usr/bin/env bash
# On the GPU machine: estimation quality (benchmarks/optimizer/estimate_quality.cpp)
# on WatDiv SF100 (its 191 queries and 200 random BGPs of 5-10 edges drawn
# from the data, every second one anchored at a constant) and on LUBM(20)
# (200 random BGPs, all anchored: unanchored ones mostly outgrow the limits),
# and on Debian's package index (benchmarks/debian_packages_rdf.py; 100 random
# BGPs, as benchmarks/results/estimate-quality-debian-dev-2core), with the GPU's walks.
#   scripts/gpu-estimates-run.sh [watdiv] [lubm] [debian]   (default: watdiv lubm)
# Carry .carry/gsparql (scripts/package-portable.sh), .carry/watdiv-tool and
# .carry/watdiv-check; for debian, .carry/debian/debian.nt.zst. Output under $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bin=$PWD/.carry/gsparql
[[ -x $bin/gsparql ]] || tar xJf .carry/gsparql.txz -C .carry
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/machine.txt"
nproc >> "$OUT/machine.txt"
sets=${*:-watdiv lubm}
rm -rf /tmp/sf100db /tmp/lubmdb /tmp/debdb
run() {  # name args...
  local name=$1
  shift
  echo "== estimate-quality $*" > "$OUT/$name.csv"
  /usr/bin/time -f "wall %e s, peak %M KB" "$bin/estimate-quality" "$@" >> "$OUT/$name.csv" 2> "$OUT/$name.err"
  sed -n '/^set,estimator/,$p' "$OUT/$name.csv"
}
if [[ " $sets " == *" watdiv "* ]]; then
  .carry/watdiv-tool/generate.sh data 100 | "$bin/gsparql" load --quiet --db /tmp/sf100db -
  run watdiv-sf100 --db /tmp/sf100db --queries .carry/watdiv-check/queries/sf100 --random 200 --seed 1 --timeout 5
fi
if [[ " $sets " == *" lubm "* ]]; then
  "$bin/lubm-generate" --universities 20 | "$bin/gsparql" load --quiet --db /tmp/lubmdb -
  run lubm-20 --db /tmp/lubmdb --random 200 --seed 2 --timeout 2 --anchor-every 1
fi
if [[ " $sets " == *" debian "* ]]; then
  zstd -dc .carry/debian/debian.nt.zst | "$bin/gsparql" load --quiet --db /tmp/debdb -
  run debian --db /tmp/debdb --random 100 --seed 3 --timeout 5
fi
