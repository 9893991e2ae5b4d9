#!/usr/bin/env bash
# The 2-core VM's readings behind the forty-fourth session's per-change claims (see README.md).
# Usage: run.sh DB OUT_DIR; binaries as named in README.md.
set -uo pipefail
db=$1 out=$2
explain() {  # BINARY QUERY_FILE: the fourth run's EXPLAIN in one REPL process (three warm-ups)
  local q; q=$(grep -v '^#' "$2" | tr '\n' ' ')
  printf '%s;\n%s;\n%s;\n.explain\n%s;\n' "$q" "$q" "$q" "$q" | "$1" repl --db "$db" 2>&1 | grep -E "ms\]|^ +[0-9]+\. "
}
pair() {  # NAME BEFORE AFTER QUERY_FILE: two rounds, before, after, after, before
  for b in "$2" "$3" "$3" "$2"; do echo "== $1: $b"; explain "$b" "$4"; done > "$out/$1.txt"
}
q=benchmarks/queries/operators
pair prefetch-filter /tmp/gsparql-noprefetch /tmp/gsparql-filterprefetch /tmp/f12v/E_coalesce_filter.rq
pair text-comparison /tmp/gsparql-oa3 /tmp/gsparql-beforeabsent $q/F12_conditionals.rq
pair id-of-absent /tmp/gsparql-beforeabsent build/default/cli/gsparql $q/F10_date-functions.rq
pair key-cursor /tmp/gsparql-plainlookup build/default/cli/gsparql /tmp/f12v/B_opt.rq
{ echo "== bench --cold"; build/default/cli/gsparql bench --db "$db" --queries /tmp/c12 --backend cpu --repeat 10 --cold
  echo "== bench (warm)"; build/default/cli/gsparql bench --db "$db" --queries /tmp/c12 --backend cpu --repeat 10; } > "$out/c1-c2-cold-warm.txt" 2>&1
perf record -F 10000 -o /tmp/perf-cold.data build/default/cli/gsparql bench --db "$db" --queries /tmp/c2only --backend cpu --repeat 30 --cold > /dev/null 2>&1
perf report -i /tmp/perf-cold.data --no-children --sort sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -40 | cut -c1-160 > "$out/c2-cold-perf.txt"
