#!/usr/bin/env bash
# subset.sh BEFORE AFTER TOOL WATDIV OUT: ABBA rounds on subsets of the queries, to tell drift from per-query cost
set -uo pipefail
before=$1 after=$2 tool=$3 watdiv=$4 out=$5
db=build/sf100db
if [ ! -f $db/CURRENT ]; then
  work=$(mktemp -d /tmp/diag.XXXXXX); cp -r "$tool" "$work/t"
  "$work/t/generate.sh" data 100 | "$after/gsparql" load --quiet --db $db -
fi
mkdir -p $out/csv
for subset in S L; do
  mkdir -p /tmp/q$subset; cp $watdiv/queries/sf100/${subset}*.rq /tmp/q$subset/
  for r in 1 2 3 4; do
    for side in before after after before; do
      bin=$before; [ $side = after ] && bin=$after
      "$bin/gsparql" bench --db $db --queries /tmp/q$subset --backend gpu --repeat 5 > $out/csv/${subset}_${side}_$r$RANDOM.csv
    done
  done
  python3 benchmarks/ab_bench.py --engine $watdiv/expected/sf100/expected.tsv before=$(ls $out/csv/${subset}_before_* | paste -sd,) after=$(ls $out/csv/${subset}_after_* | paste -sd,)
done
# the whole set, S first: reversed order via a renamed copy
mkdir -p /tmp/qr; for f in $watdiv/queries/sf100/*.rq; do b=$(basename $f); cp $f /tmp/qr/$(echo $b | tr 'CFLS' 'WXYA'); done
for r in 1 2 3; do for side in before after after before; do
  bin=$before; [ $side = after ] && bin=$after
  "$bin/gsparql" bench --db $db --queries /tmp/qr --backend gpu --repeat 5 > $out/csv/R_${side}_$r$RANDOM.csv
done; done
sed 's/^C/W/;s/^F/X/;s/^L/Y/;s/^S/A/' $watdiv/expected/sf100/expected.tsv > /tmp/exp.tsv
python3 benchmarks/ab_bench.py --engine /tmp/exp.tsv before=$(ls $out/csv/R_before_* | paste -sd,) after=$(ls $out/csv/R_after_* | paste -sd,)
tar czf $out/csv.tgz -C $out csv && rm -rf $out/csv
