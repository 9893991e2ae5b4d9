#!/usr/bin/env bash
# benchmarks/stop_latency.sh BIN WATDIV_TOOL: the runaway queries of issue 45 on WatDiv SF1 (generated on
# the spot), each with its --timeout, on the GPU and the CPU executor: wall time (process start-up
# included), peak memory and the error. A stop is on time when the wall time is within 100 ms of the
# timeout plus start-up (the `ASK {}` line).
set -uo pipefail
bin=$1 tool=$2
work=$(mktemp -d /tmp/stops.XXXXXX); cp -r "$tool" "$work/t"
"$work/t/generate.sh" data 1 | "$bin/gsparql" load --quiet --db "$work/db" - > /dev/null
python3 -c "print('SELECT ?o WHERE { ?s ?p ?o FILTER(?o IN (' + ','.join('\"v%d\"' % i for i in range(8000)) + ')) }')" > "$work/in.rq"
python3 -c "print('SELECT ?s WHERE { ?s ?p ?o FILTER(' + '+'.join(['1'] * 1999) + ' > 0) } LIMIT 1')" > "$work/chain.rq"
q() {
  local label=$1; shift
  local start=$(date +%s%N)
  local err=$( { /usr/bin/time -f "%M KB" "$bin/gsparql" query --db "$work/db" "$@" > /dev/null; } 2>&1 | tr '\n' ' ')
  printf '%-38s %6d ms  %s\n' "$label" $(( ($(date +%s%N) - start) / 1000000 )) "$err"
}
wsdbm=http://db.uwaterloo.ca/~galuc/wsdbm price=http://purl.org/goodrelations/price
for backend in gpu cpu; do
  echo "== --backend $backend"
  q "start-up (ASK {})" --backend $backend 'ASK {}'
  q "path closure, --timeout 2" --backend $backend --timeout 2 \
    'SELECT (COUNT(*) AS ?n) WHERE { ?x (!<http://x/none>|^!<http://x/none>)* ?y }'
  q "IN of 8,000 strings, --timeout 5" --backend $backend --timeout 5 -f "$work/in.rq"
  q "1,999 additions LIMIT 1, --timeout 10" --backend $backend --timeout 10 -f "$work/chain.rq"
  q "all triples x all triples, ORDER BY" --backend $backend --timeout 10 \
    'SELECT * { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f LIMIT 5'   # past the memory budget: fails at once
  for t in 1 3; do  # 77 million rows: within the budget
    q "follows x price, ORDER BY, --timeout $t" --backend $backend --timeout $t \
      "SELECT * { ?a <$wsdbm/follows> ?b . ?c <$price> ?d } ORDER BY ?b ?d LIMIT 5"
    q "follows x price, COUNT+FILTER, --timeout $t" --backend $backend --timeout $t \
      "SELECT (COUNT(*) AS ?n) { ?a <$wsdbm/follows> ?b . ?c <$price> ?d FILTER(?b != ?d) }"
  done
done
rm -rf "$work"
