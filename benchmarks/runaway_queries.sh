#!/usr/bin/env bash
# benchmarks/runaway_queries.sh BIN WATDIV_TOOL: LIMIT, ASK, --timeout and --memory-budget on a cross
# product, on the GPU and the CPU executor, WatDiv SF1 generated on the spot (the GPU machine)
set -uo pipefail
bin=$1 tool=$2
work=$(mktemp -d /tmp/runaway.XXXXXX); cp -r "$tool" "$work/t"
"$work/t/generate.sh" data 1 | "$bin/gsparql" load --quiet --db "$work/db" - > /dev/null
q() { echo "-- $*"; /usr/bin/time -f "%e s, %M KB" "$bin/gsparql" query --db "$work/db" "$@" 2>&1 | tail -3; echo "exit ${PIPESTATUS[0]}"; }
for backend in gpu cpu; do
  q --backend $backend --memory-budget 64M 'ASK { ?a ?b ?c . ?d ?e ?f }'
  q --backend $backend --memory-budget 64M --explain 'SELECT * { ?a ?b ?c . ?d ?e ?f } LIMIT 10'
  q --backend $backend --timeout 2 'SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f }'
  q --backend $backend --memory-budget 256M 'SELECT * { ?a ?b ?c . ?d ?e ?f }'
done
rm -rf "$work"
