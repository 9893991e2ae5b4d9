#!/usr/bin/env bash
# WatDiv on the GPU machine, gsparql beside Virtuoso 7.2.5 on the same data
# in one session (issue 11, section 4 at SF1000; issue 10's goal at SF100),
# in two device calls back to back (10 minutes each; /tmp survives only while
# the machine stays warm):
#   scripts/gpu-virtuoso-run.sh prepare [SCALE]  # generate WatDiv SCALE (1000), load it into gsparql and Virtuoso
#                                                # (8 loaders); without QUERIES, one query per template made for it
#                                                # (or in two calls: prepare-gsparql, then load-virtuoso)
#   scripts/gpu-virtuoso-run.sh rounds [SCALE]   # after prepare: ROUNDS (3) interleaved rounds of gsparql (CPU,
#                                                # auto, GPU warm) and Virtuoso, compared per round and over rounds
#   scripts/gpu-virtuoso-run.sh query [SCALE]    # the queries: gsparql bench on CPU, auto, GPU warm, GPU cold;
#                                                # Virtuoso through isql and HTTP; the CPU executor again after it
#   scripts/gpu-virtuoso-run.sh operators [SCALE]  # after prepare, QUERIES set: any query forms, answers compared
#                                                # with Virtuoso's, ROUNDS (2) rounds of both (HTTP for Virtuoso)
#   scripts/gpu-virtuoso-run.sh heavy [SCALE]    # after prepare, QUERIES set (benchmarks/queries/heavy or
#                                                # heavy_counts): each query as written (every row) and as COUNT(*)
#                                                # over its pattern, on CPU, auto and GPU warm, beside Virtuoso's
#                                                # (VIRTUOSO_RUNS, 2: the last is the warm one), each query under
#                                                # VIRTUOSO_QUERY_LIMIT seconds (420)
# QUERIES=FOLDER: query that folder instead (SF100: .carry/watdiv-check/queries/sf100, its 191 queries).
# Carry .carry/gsparql (gsparql and lib/) or .carry/gsparql.txz, .carry/watdiv-tool, .carry/virtuoso and
# ../shared/tools/virtuoso_bench.py as .carry/virtuoso/virtuoso_bench.py. Output under $OUT.
set -uo pipefail
G=$PWD/.carry/gsparql/gsparql
[[ -x $G ]] || tar xJf .carry/gsparql.txz -C .carry
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
scale=${2:-1000}
wd=/tmp/wd$scale db=/tmp/db$scale
queries=${QUERIES:-/tmp/q$scale}
source scripts/virtuoso-env.sh
timed() {  # label command...
  echo "== $1"
  shift
  /usr/bin/time -f "wall %e s, peak RSS %M KB" "$@" 2>&1
}
# ../shared/tools/README.md's settings: buffers for 2/3 of the memory, 2,000,000 (faster to start) up to SF100.
virtuoso_setup_scaled() { virtuoso_setup /tmp/virtuoso 16 "$( ((scale <= 100)) && echo 2000000 || echo 10900000)"; }
case ${1:-} in
  prepare|prepare-gsparql)
    { nproc; free -g | head -2; df -h /tmp | tail -1; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } > "$OUT/machine.txt" 2>&1
    rm -rf "$wd" "$db" /tmp/virtuoso "/tmp/q$scale" && cp -r .carry/watdiv-tool "$wd"
    t=$SECONDS; "$wd/generate.sh" data "$scale" > "/tmp/sf$scale.nt"
    echo "generate SF$scale: $((SECONDS - t)) s, $(wc -l < "/tmp/sf$scale.nt") lines" | tee "$OUT/generate.txt"
    timed "gsparql load --quiet --verbose --memory-budget 48G sf$scale.nt" \
      "$G" load --quiet --verbose --memory-budget 48G --db "$db" "/tmp/sf$scale.nt" > "$OUT/load-gsparql.txt"
    du -sh "$db" >> "$OUT/load-gsparql.txt"
    if [[ -z ${QUERIES:-} ]]; then
      mkdir -p "$queries"
      for template in "$wd"/templates/*.txt; do
        name=$(basename "$template" .txt)
        "$wd/generate.sh" queries "$scale" "$name" 1 | awk -v f="$queries/${name}_01.rq" 'BEGIN { RS = "" } NR == 1 { print > f }'
      done
      cp -r "$queries" "$OUT/queries"
    fi
    cat "$OUT"/generate.txt "$OUT"/load-gsparql.txt
    # prepare-gsparql stops here, the data left in /tmp for load-virtuoso: two calls where the carry cannot hold
    # gsparql, the WatDiv tool and Virtuoso at once.
    [[ $1 == prepare ]] || exit 0
    ;&
  load-virtuoso)
    virtuoso_setup_scaled
    split -n l/32 --additional-suffix=.nt "/tmp/sf$scale.nt" "$v/data/part" && rm "/tmp/sf$scale.nt"
    { t=$SECONDS; virtuoso_start; echo "started in $((SECONDS - t)) s"
      t=$SECONDS
      isql "ld_dir('$v/data', '*.nt', 'http://watdiv.org/');" > /dev/null
      for _ in $(seq 8); do isql "rdf_loader_run();" > /dev/null & done
      wait
      echo "bulk load (8 loaders): $((SECONDS - t)) s"
      t=$SECONDS; isql "checkpoint;" > /dev/null; echo "checkpoint: $((SECONDS - t)) s"
      isql "SPARQL SELECT COUNT(*) FROM <http://watdiv.org/> WHERE { ?s ?p ?o };" | grep -E "^ *[0-9]+ *$"
      virtuoso_stop; rm -rf "$v/data"; du -sh "$v/db"; } > "$OUT/load-virtuoso.txt" 2>&1
    cat "$OUT"/load-virtuoso.txt
    ;;
  query)
    for mode in "cpu" "auto" "gpu" "gpu --cold"; do
      echo "== gsparql bench --db DB --queries $queries --repeat 3 --backend $mode"
      # shellcheck disable=SC2086
      timeout 150 "$G" bench --db "$db" --queries "$queries" --repeat 3 --backend $mode 2>&1
    done > "$OUT/bench-gsparql.txt"
    virtuoso_setup_scaled
    virtuoso_start
    timeout 300 python3 .carry/virtuoso/virtuoso_bench.py "$vbin/isql-vt" 1111 8890 "$queries" http://watdiv.org/ \
      "$OUT/virtuoso.tsv" 3 > "$OUT/virtuoso-bench.log" 2>&1
    virtuoso_stop
    python3 benchmarks/virtuoso_compare.py "$OUT/bench-gsparql.txt" "$OUT/virtuoso.tsv" | tee "$OUT/summary.txt"
    # The CPU executor once more, on a machine quiet since loading: within one run it measured 1.8x faster than
    # in the first pass (benchmarks/results/h100-2026-11-25-sf100-virtuoso-tokenizer).
    { echo "== gsparql bench --db DB --queries $queries --repeat 3, again after Virtuoso stopped: --backend cpu after Virtuoso"
      timeout 100 "$G" bench --db "$db" --queries "$queries" --repeat 3 --backend cpu; } > "$OUT/bench-gsparql-cpu-after-virtuoso.txt" 2>&1
    cat "$OUT/bench-gsparql.txt" "$OUT/bench-gsparql-cpu-after-virtuoso.txt" > "$OUT/bench-both.tmp"
    python3 benchmarks/virtuoso_compare.py "$OUT/bench-both.tmp" "$OUT/virtuoso.tsv" > "$OUT/summary-with-cpu-after.txt"
    rm "$OUT/bench-both.tmp"
    grep "#" "$OUT/summary-with-cpu-after.txt"
    ;;
  rounds)
    # ROUNDS rounds, each gsparql (CPU, auto, GPU warm) then Virtuoso's HTTP and isql on the same queries, Virtuoso
    # running throughout: a drift of the machine falls on both (benchmarks/virtuoso_rounds.py).
    mkdir -p "$OUT/rounds"
    virtuoso_setup_scaled
    virtuoso_start
    for r in $(seq "${ROUNDS:-3}"); do
      for mode in cpu auto gpu; do
        echo "== gsparql bench --db DB --queries $queries --repeat 3 --backend $mode"
        timeout 150 "$G" bench --db "$db" --queries "$queries" --repeat 3 --backend $mode 2>&1
      done > "$OUT/rounds/gsparql-$r.txt"
      timeout 300 python3 .carry/virtuoso/virtuoso_bench.py "$vbin/isql-vt" 1111 8890 "$queries" http://watdiv.org/ \
        "$OUT/rounds/virtuoso-$r.tsv" 3 > "$OUT/rounds/virtuoso-bench-$r.log" 2>&1
    done
    virtuoso_stop
    python3 benchmarks/virtuoso_rounds.py "$OUT/rounds" | tee "$OUT/summary-rounds.txt"
    ;;
  operators)
    # After prepare, QUERIES any queries (benchmarks/queries/operators): every answer compared with Virtuoso's
    # once, then ROUNDS (2) rounds of gsparql bench (CPU executor and auto, interleaved) and Virtuoso through
    # HTTP, every answer fetched (benchmarks/virtuoso_operators.py; ../shared/tools/virtuoso_bench.py takes
    # SELECT ... WHERE queries only).
    mkdir -p "$OUT/operators"
    virtuoso_setup_scaled
    virtuoso_start
    python3 benchmarks/virtuoso_operators.py answers "$G" "$db" 8890 "$queries" http://watdiv.org/ \
      > "$OUT/operators/answers.txt" 2>&1
    for r in $(seq "${ROUNDS:-2}"); do
      timeout 200 "$G" bench --db "$db" --queries "$queries" --repeat 3 --backend cpu,auto > "$OUT/operators/gsparql-$r.txt" 2>&1
      timeout 200 python3 benchmarks/virtuoso_operators.py time 8890 "$queries" http://watdiv.org/ \
        "$OUT/operators/virtuoso-$r.tsv" 3
    done
    virtuoso_stop
    python3 benchmarks/virtuoso_operators.py summary "$OUT/operators" | tee "$OUT/operators/summary.txt"
    cat "$OUT/operators/answers.txt"
    ;;
  heavy)
    # Issue 10's heavy path and cycle queries: millions of solutions, every row decoded, and counted.
    forms=/tmp/heavy-forms
    rm -rf "$forms" && mkdir -p "$forms/all" "$forms/count"
    for f in "$queries"/*.rq; do
      cp "$f" "$forms/all/"
      sed -E 's/SELECT .* WHERE/SELECT (COUNT(*) AS ?n) WHERE/' "$f" > "$forms/count/$(basename "$f")"
      printf '%s\t%s\n' "$(basename "$f" .rq)" "$("$G" query --db "$db" --backend cpu --format tsv -f "$forms/count/$(basename "$f")" |
        sed -n 2p | sed 's/"//g; s/\^\^.*//')"
    done > "$OUT/counts-gsparql.tsv"
    for form in all count; do
      for mode in cpu auto gpu; do
        echo "== gsparql bench --db DB --queries $form --repeat 3 --backend $mode"
        timeout 200 "$G" bench --db "$db" --queries "$forms/$form" --repeat 3 --backend $mode 2>&1
      done > "$OUT/bench-gsparql-$form.txt"
    done
    virtuoso_setup_scaled
    virtuoso_start
    # One query at a time under its own limit, so a query Virtuoso cannot finish leaves the next ones measured;
    # after a limit Virtuoso restarts, since it goes on with the query the client gave up.
    limit=${VIRTUOSO_QUERY_LIMIT:-420}
    for f in "$forms"/all/*.rq; do
      one=/tmp/heavy-one && rm -rf "$one" && mkdir -p "$one" && cp "$f" "$one/"
      [[ -f $OUT/virtuoso.tsv ]] && header=no || header=yes
      if timeout "$limit" python3 .carry/virtuoso/virtuoso_bench.py "$vbin/isql-vt" 1111 8890 "$one" http://watdiv.org/ \
        "$one/virtuoso.tsv" "${VIRTUOSO_RUNS:-2}" >> "$OUT/virtuoso-bench.log" 2>&1; then
        if [[ $header == yes ]]; then cat "$one/virtuoso.tsv"; else tail -n +2 "$one/virtuoso.tsv"; fi >> "$OUT/virtuoso.tsv"
      else
        echo "$(basename "$f" .rq): Virtuoso gave no answer within $limit s; restarted" | tee -a "$OUT/virtuoso-bench.log"
        pkill -9 -f virtuoso-t; sleep 2; virtuoso_start
      fi
    done
    virtuoso_stop
    { echo "# every row"; python3 benchmarks/virtuoso_compare.py "$OUT/bench-gsparql-all.txt" "$OUT/virtuoso.tsv"
      echo "# COUNT(*)"; python3 benchmarks/virtuoso_compare.py "$OUT/bench-gsparql-count.txt" "$OUT/virtuoso.tsv" \
        --counts "$OUT/counts-gsparql.tsv"; } | tee "$OUT/summary.txt"
    ;;
  *) echo "usage: [QUERIES=FOLDER] [ROUNDS=N] $0 prepare | query | rounds | heavy [SCALE]" >&2; exit 2 ;;
esac
