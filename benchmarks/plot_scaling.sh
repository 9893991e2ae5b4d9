#!/usr/bin/env bash
# The scaling figure of issue 11 from committed H100 results: load time
# against triples (WatDiv and LUBM) and the median over WatDiv's 20 templates
# of each template's median query time, CPU executor and GPU warm, against
# triples. Needs gnuplot (scripts/install-deps.sh installs gnuplot-nox).
#   benchmarks/plot_scaling.sh [OUT.png]      (default docs/scaling.png)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/scaling.png}
results=benchmarks/results
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "loaded N triples read, M unique triples, ... in S s" (the summary line of
# gsparql load when these results were taken): unique triples, seconds.
load_point() {  # label file
  sed -n 's/^loaded [0-9]* triples read, \([0-9]*\) unique triples.* in \([0-9.]*\) s .*/\1 \2/p' "$2" |
    sort -k2 -n | head -n 1 | awk -v label="$1" '{ printf "%s %s \"%s\"\n", $1, $2, label }'
}
{
  load_point "WatDiv SF1" $results/h100-2026-11-25-watdiv-sf1-sf10/load-sf1.txt
  load_point "WatDiv SF10" $results/h100-2026-11-25-watdiv-sf1-sf10/load-sf10.txt
  load_point "WatDiv SF100" $results/h100-2026-11-23-scale/load-sf100.txt
  load_point "WatDiv SF1000" $results/h100-2026-11-23-scale/load-sf1000.txt
  load_point "LUBM(1000)" $results/h100-2026-11-23-lubm-paths/load-lubm1000.txt
  load_point "LUBM(2000)" $results/h100-2026-11-23-scale/load-lubm2000.txt
  # PCSR format 2 (a primary group per 8 keys), 24 November.
  load_point "LUBM(5000)" $results/h100-2026-11-24-pcsr-format2/lubm5000/load-lubm5000.txt
  load_point "LUBM(7000)" $results/h100-2026-11-24-pcsr-format2/lubm7000/load-lubm7000.txt
  load_point "LUBM(7250)" $results/h100-2026-11-25-lubm-billion/load-lubm7250.txt  # 1,001,766,003 triples read
} > "$work/load.dat"

# The median of the templates' median_of_medians_ms in one bench section.
template_median() {  # file section-header
  awk -v header="$2" '
    $0 == header { inside = 1; next }
    /^== / { inside = 0 }
    inside && /^template,/ { summary = 1; next }
    inside && summary && NF { split($0, f, ","); print f[3] }
    /^$/ && summary && inside { summary = 0 }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
sf100=$results/h100-2026-11-23-optimizer-final/bench.txt
sf1000=$results/h100-2026-11-23-scale/bench-sf1000.txt
cpu1000="== WatDiv SF1000, 20 templates: gsparql bench --db DB --queries /tmp/q1000 --repeat 3 --backend cpu"
gpu1000="== WatDiv SF1000, 20 templates: gsparql bench --db DB --queries /tmp/q1000 --repeat 3 --backend gpu"
small=$results/h100-2026-11-25-watdiv-sf1-sf10
lubm=$results/h100-2026-11-25-lubm-billion/c3bbadc/bench-lubm7250.txt
lubmHeader="== LUBM(7250), its queries with paths (qN), reasoning-free (qN-plain) and Wukong's L1-L7: gsparql bench --db DB --queries /tmp/qlubm --repeat 3 --backend"
{
  for sf in 1 10; do
    header="== WatDiv SF$sf, 20 templates: gsparql bench --db DB --queries /tmp/q$sf --repeat 3 --backend"
    unique=$(sed -n 's/^loaded [0-9]* triples read, \([0-9]*\) unique triples.*/\1/p' $small/load-sf$sf.txt)
    echo "$unique $(template_median $small/bench-sf$sf.txt "$header cpu") $(template_median $small/bench-sf$sf.txt "$header gpu")"
  done
  echo "10915771 $(template_median $sf100 '== --backend cpu --optimizer sampling') $(template_median $sf100 '== --backend gpu --optimizer sampling')"
  echo "109016055 $(template_median $sf1000 "$cpu1000") $(template_median $sf1000 "$gpu1000")"
} > "$work/query.dat"
echo "967699104 $(template_median $lubm "$lubmHeader cpu") $(template_median $lubm "$lubmHeader gpu")" > "$work/lubm.dat"
cat "$work/load.dat" "$work/query.dat" "$work/lubm.dat"

gnuplot <<PLOT
set terminal pngcairo size 1200,500 font ",11"
set output "$out"
set multiplot layout 1,2 title "gsparql on the H100 machine (16 cores), 23-25 November 2026"
set logscale xy
set grid
set xlabel "unique triples"
set ylabel "load time (s)"
set title "Parallel load (from .nt; LUBM piped from lubm-generate)"
set xrange [5e4:1e10]
set key left top
plot "$work/load.dat" using 1:2 with linespoints pt 7 title "gsparql load", \
     "" using 1:2:3 with labels left offset 1,-0.4 notitle
set key right top
set ylabel "median query time (ms)"
set title "Median of the queries' medians, all rows decoded"
set xrange [5e4:1e10]
set key left top
plot "$work/query.dat" using 1:2 with linespoints pt 7 title "WatDiv (20 templates), CPU executor", \
     "" using 1:3 with linespoints pt 5 title "WatDiv, GPU warm", \
     "$work/lubm.dat" using 1:2 with points pt 9 ps 1.5 title "LUBM(7250) (35 queries), CPU executor", \
     "" using 1:3 with points pt 11 ps 1.5 title "LUBM(7250), GPU warm"
unset multiplot
PLOT
echo "wrote $out"
