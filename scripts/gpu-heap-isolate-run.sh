#!/usr/bin/env bash
# On the GPU machine: which of a build's changes moves warm WatDiv SF100 on
# the CPU executor. Variants: before (the before build), before-tun (with the
# heap settings as GLIBC_TUNABLES), after (this build, which sets them in
# main), noheap (this build without that call) and noheap-tun. Five rounds,
# each variant once in every position (a cyclic Latin square). Carry
# .carry/gsparql-serve.txz holding gsparql/{gsparql,gsparql-before,gsparql-noheap,lib},
# .carry/watdiv-tool, .carry/watdiv-sf100. Output under $OUT as one archive.
set -uo pipefail
source scripts/carried-serve-env.sh
dir=$root/.carry/gsparql
T=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864
R=/tmp/heap-isolate && rm -rf $R && mkdir -p $R/csv
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
run() {
  case $1 in
    before) "$dir/gsparql-before" "${@:2}" ;;
    before-tun) GLIBC_TUNABLES=$T "$dir/gsparql-before" "${@:2}" ;;
    after) "$dir/gsparql" "${@:2}" ;;
    noheap) "$dir/gsparql-noheap" "${@:2}" ;;
    noheap-tun) GLIBC_TUNABLES=$T "$dir/gsparql-noheap" "${@:2}" ;;
  esac
}
variants=(before before-tun after noheap noheap-tun)
for round in 0 1 2 3 4; do
  for k in 0 1 2 3 4; do
    v=${variants[$(((round + k) % 5))]}
    run "$v" bench --db /tmp/db --queries .carry/watdiv-sf100/queries --backend cpu --repeat 3 > "$R/csv/$v-$round.csv" 2>&1
  done
done
E=.carry/watdiv-sf100/expected/expected.tsv
for v in before-tun after noheap noheap-tun; do
  python3 benchmarks/ab_bench.py "$E" before="$(ls $R/csv/before-[0-9]*.csv | paste -sd,)" \
    after="$(ls $R/csv/$v-[0-9]*.csv | paste -sd,)" > "$R/before-vs-$v.txt"
  echo "before -> $v: $(grep '^all' "$R/before-vs-$v.txt")"
done
tar czf "${OUT:-/tmp}/heap-isolate.tgz" -C "$R" .
