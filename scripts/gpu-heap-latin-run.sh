#!/usr/bin/env bash
# On the GPU machine: the before build, the before build with the heap settings as GLIBC_TUNABLES, and
# the after build, on the CPU executor (operator queries and WatDiv SF100), in six rounds that take the
# three in every order. Carry as scripts/gpu-heap-variants-run.sh. Output under $OUT as one archive.
set -uo pipefail
source scripts/carried-serve-env.sh
before=$root/.carry/gsparql/gsparql-before
T=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864
R=/tmp/hv2 && rm -rf $R && mkdir -p $R
wd=/tmp/watdiv-tool && rm -rf "$wd" && cp -r .carry/watdiv-tool "$wd"
"$wd/generate.sh" data 100 | "$GSPARQL" load --db /tmp/db --quiet - > "$R/load.txt" 2>&1
run() { case $1 in before) "$before" "${@:2}";; tunables) GLIBC_TUNABLES=$T "$before" "${@:2}";; after) "$GSPARQL" "${@:2}";; esac; }
r=0
for order in "before tunables after" "tunables after before" "after before tunables" "before after tunables" "after tunables before" "tunables before after"; do
  r=$((r+1))
  for v in $order; do
    run $v bench --db /tmp/db --queries benchmarks/queries/operators --backend cpu --repeat 5 > $R/ops-$v-$r.csv 2>&1
    run $v bench --db /tmp/db --queries .carry/watdiv-sf100/queries --backend cpu --repeat 3 > $R/wd-$v-$r.csv 2>&1
  done
done
E=.carry/watdiv-sf100/expected/expected.tsv; N=$R/none.tsv; printf 'query\trows\n' > $N
for v in tunables after; do
  python3 benchmarks/ab_bench.py $N before=$(ls $R/ops-before-[0-9]*|paste -sd,) after=$(ls $R/ops-$v-[0-9]*|paste -sd,) > $R/ops-before-vs-$v.txt
  python3 benchmarks/ab_bench.py $E before=$(ls $R/wd-before-[0-9]*|paste -sd,) after=$(ls $R/wd-$v-[0-9]*|paste -sd,) > $R/wd-before-vs-$v.txt
done
python3 benchmarks/ab_bench.py $N before=$(ls $R/ops-tunables-[0-9]*|paste -sd,) after=$(ls $R/ops-after-[0-9]*|paste -sd,) > $R/ops-tunables-vs-after.txt
python3 benchmarks/ab_bench.py $E before=$(ls $R/wd-tunables-[0-9]*|paste -sd,) after=$(ls $R/wd-after-[0-9]*|paste -sd,) > $R/wd-tunables-vs-after.txt
for f in $R/*-vs-*.txt; do echo "$f: $(grep '^all' $f)"; done
tar czf $OUT/hv2.tgz -C $R .
