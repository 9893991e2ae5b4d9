#!/usr/bin/env bash
# Before/after of the operator benchmark, interleaved A B A B ...:
#   run.sh BEFORE_BIN AFTER_BIN DB ROUNDS OUTDIR
# A is the base (fa3b0ee), B the head of branch operators; both CPU executor.
set -euo pipefail
before=$1 after=$2 db=$3 rounds=$4 out=$5
source benchmarks/run_header.sh
for i in $(seq 1 "$rounds"); do
  for side in A B; do
    bin=$before; [ "$side" = B ] && bin=$after
    {
      print_run_header "round $i side $side ($bin); load: $(cut -d' ' -f1-3 /proc/loadavg)"
      echo "## $bin bench --db $db --queries benchmarks/queries/operators --repeat 5 --backend cpu"
      "$bin" bench --db "$db" --queries benchmarks/queries/operators --repeat 5 --backend cpu
    } > "$out/round$i-$side.csv" 2>&1
  done
done
