#!/usr/bin/env bash
# WatDiv SF1000 on the GPU machine, gsparql beside Virtuoso 7.2.5 on the same
# data in one session (issue 11, section 4), in two device calls back to back
# (10 minutes each; /tmp survives only while the machine stays warm):
#   scripts/gpu-virtuoso-sf1000-run.sh prepare  # generate SF1000, load it into gsparql and Virtuoso (8 loaders)
#   scripts/gpu-virtuoso-sf1000-run.sh query    # the 20 templates (one query each, made for the data): gsparql
#                                               # bench on CPU, GPU warm, GPU cold; Virtuoso through isql and HTTP
# Carry .carry/gsparql (gsparql and lib/), .carry/watdiv-tool, .carry/virtuoso and
# ../shared/tools/virtuoso_bench.py as .carry/virtuoso/virtuoso_bench.py. Output under $OUT.
set -uo pipefail
G=$PWD/.carry/gsparql/gsparql
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
source scripts/virtuoso-env.sh
timed() {  # label command...
  echo "== $1"
  shift
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$@" 2>&1
}
virtuoso_setup_sf1000() { virtuoso_setup /tmp/virtuoso 16 10900000; }  # ../shared/tools/README.md's settings
case ${1:-} in
  prepare)
    { nproc; free -g | head -2; df -h /tmp | tail -1; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } > "$OUT/machine.txt" 2>&1
    rm -rf /tmp/wd1000 /tmp/db1000 /tmp/virtuoso /tmp/q1000 && cp -r .carry/watdiv-tool /tmp/wd1000
    t=$SECONDS; /tmp/wd1000/generate.sh data 1000 > /tmp/sf1000.nt
    echo "generate SF1000: $((SECONDS - t)) s, $(wc -l < /tmp/sf1000.nt) lines" | tee "$OUT/generate.txt"
    timed "gsparql load --quiet --verbose --memory-budget 48G sf1000.nt" \
      "$G" load --quiet --verbose --memory-budget 48G --db /tmp/db1000 /tmp/sf1000.nt > "$OUT/load-gsparql.txt"
    du -sh /tmp/db1000 >> "$OUT/load-gsparql.txt"
    virtuoso_setup_sf1000
    split -n l/32 --additional-suffix=.nt /tmp/sf1000.nt "$v/data/part" && rm /tmp/sf1000.nt
    { t=$SECONDS; virtuoso_start; echo "started in $((SECONDS - t)) s"
      t=$SECONDS
      isql "ld_dir('$v/data', '*.nt', 'http://watdiv.org/');" > /dev/null
      for _ in $(seq 8); do isql "rdf_loader_run();" > /dev/null & done
      wait
      echo "bulk load (8 loaders): $((SECONDS - t)) s"
      t=$SECONDS; isql "checkpoint;" > /dev/null; echo "checkpoint: $((SECONDS - t)) s"
      isql "SPARQL SELECT COUNT(*) FROM <http://watdiv.org/> WHERE { ?s ?p ?o };" | grep -E "^ *[0-9]+ *$"
      virtuoso_stop; rm -rf "$v/data"; du -sh "$v/db"; } > "$OUT/load-virtuoso.txt" 2>&1
    mkdir -p /tmp/q1000
    for template in /tmp/wd1000/templates/*.txt; do
      name=$(basename "$template" .txt)
      /tmp/wd1000/generate.sh queries 1000 "$name" 1 | awk -v f="/tmp/q1000/${name}_01.rq" 'BEGIN { RS = "" } NR == 1 { print > f }'
    done
    cp -r /tmp/q1000 "$OUT/queries"
    cat "$OUT"/generate.txt "$OUT"/load-*.txt
    ;;
  query)
    for mode in "cpu" "gpu" "gpu --cold"; do
      echo "== gsparql bench --db DB --queries /tmp/q1000 --repeat 3 --backend $mode"
      # shellcheck disable=SC2086
      timeout 150 "$G" bench --db /tmp/db1000 --queries /tmp/q1000 --repeat 3 --backend $mode 2>&1
    done > "$OUT/bench-gsparql.txt"
    virtuoso_setup_sf1000
    virtuoso_start
    timeout 300 python3 .carry/virtuoso/virtuoso_bench.py "$vbin/isql-vt" 1111 8890 /tmp/q1000 http://watdiv.org/ \
      "$OUT/virtuoso.tsv" 3 > "$OUT/virtuoso-bench.log" 2>&1
    virtuoso_stop
    python3 benchmarks/virtuoso_compare.py "$OUT/bench-gsparql.txt" "$OUT/virtuoso.tsv" | tee "$OUT/summary.txt"
    ;;
  *) echo "usage: $0 prepare | query" >&2; exit 2 ;;
esac
