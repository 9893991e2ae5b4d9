#!/usr/bin/env bash
# Regenerates tests/differential/expected/ from Apache Jena's arq (Debian
# package libapache-jena-java, Jena 4.5): each queries/NN-name.rq is run over
# every file of data/ (each loaded as its own file, like the test does) and
# the answer written as
#   expected/NN-name.srj  SELECT and ASK (SPARQL 1.1 Query Results JSON)
#   expected/NN-name.nt   CONSTRUCT and DESCRIBE (N-Triples)
# Queries whose first lines hold "# expect: spec" keep their hand-checked
# answer file (data/README.md says why); the script only prints what Jena says
# for them (its file under $TMPDIR/gsparql-jena-answers/out) for comparison.
#
#   tests/differential/tools/jena-answers.sh [NN-name ...]   (default: all)
#
# Needs java and libapache-jena-java; nothing of this runs at test time.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/gsparql-jena-answers"
mkdir -p "$work"

source "$here/../support/jena_classpath.sh"
cp=$(jena_classpath "$work")

data=("$here"/data/*.nt "$here"/data/*.ttl)
if [ $# -gt 0 ]; then queries=(); for n in "$@"; do queries+=("$here/queries/$n.rq"); done
else queries=("$here"/queries/*.rq); fi

rm -rf "$work/out" && mkdir -p "$work/out"
# One JVM for all queries (arq.sparql per query takes ~25 s on a busy machine);
# JenaAnswers.java does what `arq.sparql --data F... --query Q --results=json|nt` does.
# It goes on past a query that Jena fails on, and exits 1 then; checked below.
java -cp "$cp" "$here/tools/JenaAnswers.java" "$work/out" "${data[@]}" -- "${queries[@]}" || true

shopt -s nullglob
for q in "${queries[@]}"; do
  name=$(basename "$q" .rq)
  for f in "$work/out/$name".*; do
    if head -5 "$q" | grep -q '^# expect: spec'; then
      echo "$name: hand-checked answer kept; Jena's is $f"
    else
      cp "$f" "$here/expected/"
    fi
  done
done
# Jena failing on a query (it rejects the regex flag x, for one) is fine only
# for the hand-checked ones.
status=0
for q in "${queries[@]}"; do
  name=$(basename "$q" .rq)
  if head -5 "$q" | grep -q '^# expect: spec'; then continue; fi
  ls "$work/out/$name".* > /dev/null 2>&1 || { echo "$name: Jena gave no answer" >&2; status=1; }
done
exit $status
