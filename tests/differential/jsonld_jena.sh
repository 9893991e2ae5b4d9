#!/usr/bin/env bash
# JSON-LD against Apache Jena 4.5 (Debian libapache-jena-java; its JSON-LD
# 1.0 reader and writer, jsonld-java): an N-Triples FILE written as JSON-LD
# by Jena and loaded by gsparql, and dumped as JSON-LD by gsparql and read
# by Jena, must each give FILE's graph (compared as gsparql dumps, blank
# node labels made anonymous, language tags in lower case: RDF 1.1 compares
# them so, and jsonld-java lower-cases them). Run by hand: each Jena run
# starts a JVM, seconds, too slow for the CTest run.
#   tests/differential/jsonld_jena.sh build/default/cli/gsparql tests/data/load/tricky.nt
# Exit 0 when both agree, 1 when not, 3 when java or Jena is missing.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "jsonld_jena.sh: needs java and libapache-jena-java" >&2; exit 3; }
gsparql=$(realpath "$1") file=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/gsparql-jsonld-jena.XXXXXX")
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../support/jena_classpath.sh"
# jsonld-java needs Apache HttpClient's cache classes, which the usual classpath leaves out.
cp="$(jena_classpath "$work"):/usr/share/java/httpclient-cache.jar"

# The graph of an input, as gsparql dumps it, blank nodes anonymous,
# language tags in lower case, sorted.
graph() {
  rm -rf "$work/db"
  "$gsparql" load --quiet --db "$work/db" "$1" > /dev/null
  "$gsparql" dump --db "$work/db" | sed -E 's/_:[A-Za-z0-9_.-]+/_:/g; s/([^\\])"@([A-Za-z0-9-]+)/\1"@\L\2/' | LC_ALL=C sort
}

graph "$file" > "$work/expected.nq"
status=0
same_graph() {  # LABEL FILE: whether FILE, loaded by gsparql, holds the expected graph
  if graph "$2" | cmp -s - "$work/expected.nq"; then
    echo "$1: the same graph"
  else
    echo "$1: a different graph"
    graph "$2" | diff "$work/expected.nq" - || true
    status=1
  fi
}
java -cp "$cp" riotcmd.riot --output=jsonld10 "$file" > "$work/jena.jsonld"
same_graph "Jena's JSON-LD, loaded by gsparql" "$work/jena.jsonld"
rm -rf "$work/db"
"$gsparql" load --quiet --db "$work/db" "$file" > /dev/null
"$gsparql" dump --db "$work/db" --format jsonld > "$work/gsparql.jsonld"
java -cp "$cp" riotcmd.riot --syntax=jsonld10 --output=nq "$work/gsparql.jsonld" > "$work/jena.nq"
same_graph "gsparql's JSON-LD, read by Jena" "$work/jena.nq"
exit "$status"
