#!/usr/bin/env bash
# Runs Apache Jena's arq.rsparql (Debian libapache-jena-java) with the given
# arguments, e.g.
#   tests/server/rsparql.sh --service http://127.0.0.1:7878/sparql --query q.rq --results=TSV
# Exit 3 when java or Jena is not installed.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "rsparql.sh: needs java and libapache-jena-java" >&2; exit 3; }
work="${TMPDIR:-/tmp}/gsparql-rsparql-$(id -u)"
mkdir -p "$work"

source "$(dirname "$0")/../support/jena_classpath.sh"
exec java -cp "$(jena_classpath "$work")" arq.rsparql "$@"
