#!/bin/sh
# Regenerates the golden files in tricky/ and numbers/ with Apache Jena 4.5
# (Debian libapache-jena-java; see /work/shared/docs/reference-engines.md for
# the classpath fix). Not run by the tests: the outputs are committed.
#   JENA_CP=... tests/results/data/regenerate.sh
set -eu
cd "$(dirname "$0")"
: "${JENA_CP:?set JENA_CP to the Jena classpath}"
for dir in tricky numbers; do
  for q in "$dir"/*.rq; do
    base=${q%.rq}
    for f in tsv json xml csv; do
      java -cp "$JENA_CP" arq.sparql --data "$dir/data.nt" --query "$q" --results=$f > "$base.$f"
    done
  done
done
