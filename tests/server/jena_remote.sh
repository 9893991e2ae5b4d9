#!/usr/bin/env bash
# Runs one of Apache Jena's remote tools (Debian libapache-jena-java), arq.rsparql
# or arq.rupdate, with the given arguments, e.g.
#   tests/server/jena_remote.sh rsparql --service http://127.0.0.1:7878/sparql --query q.rq --results=TSV
#   tests/server/jena_remote.sh rupdate --service http://127.0.0.1:7878/sparql --update u.ru
# Exit 3 when java or Jena is not installed.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "jena_remote.sh: needs java and libapache-jena-java" >&2; exit 3; }
tool=$1
shift
case "$tool" in rsparql | rupdate) ;; *) echo "jena_remote.sh: rsparql or rupdate, not '$tool'" >&2; exit 2 ;; esac
work="${TMPDIR:-/tmp}/gsparql-rsparql-$(id -u)"
mkdir -p "$work"

source "$(dirname "$0")/../support/jena_classpath.sh"
exec java -cp "$(jena_classpath "$work")" "arq.$tool" "$@"
