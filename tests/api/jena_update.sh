#!/usr/bin/env bash
# Applies a SPARQL Update request with Apache Jena's arq.update (Debian
# libapache-jena-java) to an N-Triples file and writes the resulting default
# graph as Turtle:
#   tests/api/jena_update.sh DATA.nt REQUEST.ru OUT.ttl
# Exit 3 when java or Jena is not installed.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "jena_update.sh: needs java and libapache-jena-java" >&2; exit 3; }
work="${TMPDIR:-/tmp}/gsparql-jena-update-$(id -u)"
mkdir -p "$work"

source "$(dirname "$0")/../support/jena_classpath.sh"
java -cp "$(jena_classpath "$work")" arq.update --data="$1" --update="$2" --dump > "$3"
