#!/usr/bin/env bash
# Time and peak memory of `gsparql parse` on repetitive queries of growing
# size: each shape at N, 2N, 4N, 8N repetitions. Linear parsing keeps the
# per-unit columns flat.
#   benchmarks/parser_scaling.sh [GSPARQL_BINARY] [N] [TIME_LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/run_header.sh
bin=${1:-build/default/cli/gsparql}
base=${2:-1000}
limit=${3:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One query of shape $1 with $2 repetitions on standard output.
generate() {
  python3 - "$1" "$2" <<'EOF'
import sys
shape, n = sys.argv[1], int(sys.argv[2])
r = range(n)
body = {
  "filters":   lambda: "?s ?p ?o " + " ".join(f"FILTER(?o > {i})" for i in r),
  "triples":   lambda: " ".join(f"?s <http://e/p{i}> ?o{i} ." for i in r),
  "union":     lambda: " UNION ".join(f"{{ ?s <http://e/p> {i} }}" for i in r),
  "optional":  lambda: "?s ?p ?o " + " ".join(f"OPTIONAL {{ ?s <http://e/p{i}> ?o{i} }}" for i in r),
  "in-list":   lambda: "?s ?p ?o FILTER(?o IN (" + ",".join(str(i) for i in r) + "))",
  "or-chain":  lambda: "?s ?p ?o FILTER(" + " || ".join(f"?o = {i}" for i in r) + ")",
  "values":    lambda: "?s ?p ?o VALUES ?o { " + " ".join(str(i) for i in r) + " }",
  "path-seq":  lambda: "?s " + "/".join("<http://e/p>" for i in r) + " ?o",
  "unclosed":  lambda: "?s ?p ?o " + " ".join(f"FILTER(?o > {i})" for i in r) + " FILTER(",
}[shape]()
print("SELECT * WHERE { " + body + " }")
EOF
}

# One line: the shape at n repetitions.
measure() {
  local shape=$1 n=$2
  generate "$shape" "$n" > "$work/q.rq"
  # A run past the time limit is printed as the limit.
  /usr/bin/time -f '%e %M' -o "$work/time" timeout "$limit" "$bin" parse -f "$work/q.rq" > /dev/null 2>&1 || true
  read -r secs kb < <(tail -1 "$work/time")
  awk -v s="$shape" -v n="$n" -v b="$(stat -c %s "$work/q.rq")" -v t="$secs" -v kb="$kb" \
    'BEGIN { printf "%-10s %7d %9d %8.2f %9.1f %12.1f\n", s, n, b, t, kb / 1024, t * 1e6 / n }'
}

print_run_header "$bin parse -f Q > /dev/null, base N=$base, limit ${limit} s"
printf '%-10s %7s %9s %8s %9s %12s\n' shape n bytes seconds peak_MB us_per_unit
for shape in filters triples union optional in-list or-chain values path-seq unclosed; do
  for mult in 1 2 4 8; do
    measure "$shape" $((base * mult))
    (( ${secs%.*} < limit )) || break  # a timed-out size ends the shape
  done
done
# The issue's case, 1.6 MB of FILTERs: slow before its first error, now over the size limit.
measure filters 100000
