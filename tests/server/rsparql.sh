#!/usr/bin/env bash
# Runs Apache Jena's arq.rsparql (Debian libapache-jena-java) with the given
# arguments, e.g.
#   tests/server/rsparql.sh --service http://127.0.0.1:7878/sparql --query q.rq --results=TSV
# Exit 3 when java or Jena is not installed.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "rsparql.sh: needs java and libapache-jena-java" >&2; exit 3; }
work="${TMPDIR:-/tmp}/gsparql-rsparql-$(id -u)"
mkdir -p "$work"

# Debian's Jena jars look for the xerces resources under xerces/ but ship
# them under org/apache/jena/ext/xerces/ in jena-core.jar (as
# tests/differential/tools/jena-answers.sh explains): a copy at xerces/.
if [ ! -d "$work/xerces-fix/xerces" ]; then
  tmp=$(mktemp -d "$work/fix.XXXXXX")
  (cd "$tmp" && unzip -q -o /usr/share/java/jena-core.jar 'org/apache/jena/ext/xerces/*' &&
     mkdir xerces && cp -r org/apache/jena/ext/xerces/. xerces/ && rm -rf org)
  mkdir -p "$work/xerces-fix" && mv "$tmp/xerces" "$work/xerces-fix/" 2>/dev/null || true
  rm -rf "$tmp"
fi
# The Jena jars and what they need, without the logging jars that clash.
cp=""
for j in /usr/share/java/jena-*.jar; do
  case "$(basename "$j")" in *-[0-9]*.jar) continue ;; esac
  cp="$cp:$j"
done
for name in commons-cli commons-codec commons-compress commons-csv commons-io commons-lang3 dexx.collection \
            gson guava httpclient httpcore jackson-annotations jackson-core jackson-databind jsonld-java \
            jakarta.json-api protobuf slf4j-api slf4j-simple thrift titanium-json-ld; do
  cp="$cp:/usr/share/java/$name.jar"
done
exec java -cp "${cp#:}:$work/xerces-fix" arq.rsparql "$@"
