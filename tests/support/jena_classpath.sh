# Sourced by the scripts that run Apache Jena (Debian libapache-jena-java):
#   source tests/support/jena_classpath.sh; cp=$(jena_classpath "$work")
# prints the classpath of the Jena jars and what they need, without the
# logging jars that clash. Debian's Jena jars look for the xerces resources
# under xerces/ but ship them under org/apache/jena/ext/xerces/ in
# jena-core.jar: a copy is made once at WORK/xerces-fix/xerces and put on the
# classpath after the jars.
jena_classpath() {
  local work=$1 tmp cp="" j name
  if [ ! -d "$work/xerces-fix/xerces" ]; then
    tmp=$(mktemp -d "$work/fix.XXXXXX")
    (cd "$tmp" && unzip -q -o /usr/share/java/jena-core.jar 'org/apache/jena/ext/xerces/*' &&
       mkdir xerces && cp -r org/apache/jena/ext/xerces/. xerces/ && rm -rf org)
    mkdir -p "$work/xerces-fix" && mv "$tmp/xerces" "$work/xerces-fix/" 2>/dev/null || true
    rm -rf "$tmp"
  fi
  for j in /usr/share/java/jena-*.jar; do
    case "$(basename "$j")" in *-[0-9]*.jar) continue ;; esac
    cp="$cp:$j"
  done
  for name in commons-cli commons-codec commons-compress commons-csv commons-io commons-lang3 dexx.collection \
              gson guava httpclient httpcore jackson-annotations jackson-core jackson-databind jsonld-java \
              jakarta.json-api protobuf slf4j-api slf4j-simple thrift titanium-json-ld; do
    cp="$cp:/usr/share/java/$name.jar"
  done
  echo "${cp#:}:$work/xerces-fix"
}
