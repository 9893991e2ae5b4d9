#!/usr/bin/env bash
# Scale runs on the GPU machine (issue 11), one step per device call (10
# minutes each); /tmp survives between calls only while the machine stays warm
# (about 30 s idle), so each step rebuilds what it misses.
#   scripts/gpu-load-run.sh sf100      # facts, GPU tests; SF100 generated and loaded twice; LUBM(1000) piped;
#                                      # SF1000 generated in the background meanwhile
#   scripts/gpu-load-run.sh sf1000     # SF1000 loaded (from the file of step 1, else piped from the generator);
#                                      # the 20 templates generated for it, run on CPU, GPU warm and GPU cold
#   scripts/gpu-load-run.sh sf-small   # SF1 and SF10 generated, loaded from .nt, their 20 templates on CPU and GPU
#   scripts/gpu-load-run.sh lubm N     # LUBM(N) generated on all cores and piped into the loader; its queries
#                                      # (LOAD_ONLY=1: not the queries)
#   scripts/gpu-load-run.sh lubm-bench N  # the queries on the LUBM(N) database a previous call loaded; MODES
#                                      # (default "cpu gpu gpu--cold") and BENCH_TIMEOUT per mode
# Carry .carry/gsparql (scripts/package-portable.sh: gsparql, gpu_tests,
# lubm-generate, lib/) and .carry/watdiv-tool (../shared/tools/watdiv).
# Output under $OUT.
set -uo pipefail
G=$PWD/.carry/gsparql/gsparql
LUBM=$PWD/.carry/gsparql/lubm-generate
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
BUDGET=${BUDGET:-48G}
timed() {  # label command... : wall time and peak memory of a command
  echo "== $1"
  shift
  /usr/bin/time -f "wall %e s, peak RSS %M KB, user %U s, sys %S s" "$@" 2>&1
}
timed_load() {  # label db args...
  local label=$1 db=$2
  shift 2
  rm -rf "$db"
  timed "$label: gsparql load --quiet --verbose --memory-budget $BUDGET $*" \
    "$G" load --quiet --verbose --memory-budget $BUDGET --db "$db" "$@"
  du -sh "$db"
}
watdiv_copy() {  # a private copy of the generator: it writes saved.txt into its own folder
  rm -rf "$1" && cp -r .carry/watdiv-tool "$1"
}
bench_all() {  # db queries label: CPU, GPU warm, GPU cold (MODES, "--" for a space); one process each
  for m in ${MODES:-cpu gpu gpu--cold}; do
    mode=${m//--/ --}
    echo "== $3: gsparql bench --db DB --queries $2 --repeat ${REPEAT:-3} --backend $mode"
    # shellcheck disable=SC2086
    timeout "${BENCH_TIMEOUT:-150}" "$G" bench --db "$1" --queries "$2" --repeat "${REPEAT:-3}" --backend $mode 2>&1
  done
}
case ${1:-} in
  sf100)
    { nproc; free -g | head -2; df -h /tmp | tail -1; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } > "$OUT/machine.txt" 2>&1
    watdiv_copy /tmp/wd1000
    ( t=$SECONDS; /tmp/wd1000/generate.sh data 1000 > /tmp/sf1000.nt.part && mv /tmp/sf1000.nt.part /tmp/sf1000.nt
      echo "generate SF1000: $((SECONDS - t)) s" > /tmp/generate-sf1000.txt ) > /dev/null 2>&1 &
    GSPARQL_TEST_DATA=tests/data timeout 200 .carry/gsparql/gpu_tests > "$OUT/gpu_tests.txt" 2>&1
    tail -n 3 "$OUT/gpu_tests.txt"
    watdiv_copy /tmp/wd100
    t=$SECONDS; /tmp/wd100/generate.sh data 100 > /tmp/sf100.nt
    echo "generate SF100: $((SECONDS - t)) s, $(wc -l < /tmp/sf100.nt) lines" > "$OUT/generate.txt"
    { echo "(the SF1000 generator runs on one core meanwhile)"
      for round in 1 2; do timed_load "SF100 from the file, round $round" /tmp/db100 /tmp/sf100.nt; done
      "$G" info --db /tmp/db100 --verify 2>&1 | tail -n 2; } > "$OUT/load-sf100.txt"
    rm -rf /tmp/db100
    "$0" lubm 1000
    ;;
  sf1000)
    if [ ! -f /tmp/sf1000.nt ] && [ ! -f /tmp/sf1000.nt.part ]; then
      watdiv_copy /tmp/wd1000
      timed "SF1000 generated and piped: generate.sh data 1000 | gsparql load --memory-budget $BUDGET -" \
        bash -c "/tmp/wd1000/generate.sh data 1000 | $G load --quiet --verbose --memory-budget $BUDGET --db /tmp/db1000 -" \
        > "$OUT/load-sf1000.txt"
    else
      while [ ! -f /tmp/sf1000.nt ]; do sleep 2; done
      cp /tmp/generate-sf1000.txt "$OUT/"
      timed_load "SF1000 from the file" /tmp/db1000 /tmp/sf1000.nt > "$OUT/load-sf1000.txt"
      rm -f /tmp/sf1000.nt
    fi
    mkdir -p /tmp/q1000
    for template in /tmp/wd1000/templates/*.txt; do
      name=$(basename "$template" .txt)
      /tmp/wd1000/generate.sh queries 1000 "$name" 1 | awk -v f="/tmp/q1000/${name}_01.rq" 'BEGIN { RS = "" } NR == 1 { print > f }'
    done
    bench_all /tmp/db1000 /tmp/q1000 "WatDiv SF1000, 20 templates" > "$OUT/bench-sf1000.txt"
    ;;
  sf-small)
    for sf in 1 10; do
      watdiv_copy /tmp/wd$sf
      /tmp/wd$sf/generate.sh data $sf > /tmp/sf$sf.nt
      timed_load "SF$sf from the file" /tmp/db$sf /tmp/sf$sf.nt > "$OUT/load-sf$sf.txt"
      mkdir -p /tmp/q$sf
      for template in /tmp/wd$sf/templates/*.txt; do
        name=$(basename "$template" .txt)
        /tmp/wd$sf/generate.sh queries $sf "$name" 1 | awk -v f="/tmp/q$sf/${name}_01.rq" 'BEGIN { RS = "" } NR == 1 { print > f }'
      done
      MODES=${MODES:-cpu gpu} bench_all /tmp/db$sf /tmp/q$sf "WatDiv SF$sf, 20 templates" > "$OUT/bench-sf$sf.txt"
    done
    ;;
  lubm)
    n=${2:?number of universities}
    rm -rf /tmp/dblubm /tmp/db1000
    # With the schema, which the path queries' rdf:type/rdfs:subClassOf* follow (before 24 November it was left
    # out, and those queries found no rows).
    { timed "lubm-generate --universities $n | gsparql load --quiet --verbose --memory-budget $BUDGET - univ-bench-schema.ttl" \
        bash -c "$LUBM --universities $n | $G load --quiet --verbose --memory-budget $BUDGET --db /tmp/dblubm - benchmarks/lubm/univ-bench-schema.ttl"
      du -sh /tmp/dblubm
      df -h /tmp | tail -n 1; } > "$OUT/load-lubm$n.txt"
    [ -n "${LOAD_ONLY:-}" ] || "$0" lubm-bench "$n"
    ;;
  lubm-bench)
    n=${2:?number of universities}
    mkdir -p /tmp/qlubm && cp benchmarks/lubm/queries/q*.rq benchmarks/lubm/wukong/l*.rq /tmp/qlubm/
    bench_all /tmp/dblubm /tmp/qlubm "LUBM($n), its queries with paths (qN), reasoning-free (qN-plain) and Wukong's L1-L7" \
      > "$OUT/bench-lubm$n.txt"
    ;;
  *) echo "usage: $0 sf100 | sf1000 | lubm N" >&2; exit 2 ;;
esac
