#!/usr/bin/env bash
# Answers a query over an N-Triples file under RDFS with Apache Jena's RDFS
# rule reasoner (Debian libapache-jena-java; arq.sparql over an assembler's
# InfModel), as TSV:
#   tests/api/jena_rdfs.sh DATA.nt QUERY.rq OUT.tsv
# Exit 3 when java or Jena is not installed.
set -euo pipefail

command -v java > /dev/null && [ -f /usr/share/java/jena-arq.jar ] || { echo "jena_rdfs.sh: needs java and libapache-jena-java" >&2; exit 3; }
work="${TMPDIR:-/tmp}/gsparql-jena-rdfs-$(id -u)"
mkdir -p "$work"
assembler=$(mktemp "$work/assembler.XXXXXX.ttl")
trap 'rm -f "$assembler"' EXIT
cat > "$assembler" <<TTL
@prefix ja: <http://jena.hpl.hp.com/2005/11/Assembler#> .
<#dataset> a ja:RDFDataset ; ja:defaultGraph <#inferred> .
<#inferred> a ja:InfModel ; ja:baseModel <#data> ;
  ja:reasoner [ ja:reasonerURL <http://jena.hpl.hp.com/2003/RDFSExptRuleReasoner> ] .
<#data> a ja:MemoryModel ; ja:content [ ja:externalContent <file://$(realpath "$1")> ] .
TTL
source "$(dirname "$0")/../support/jena_classpath.sh"
java -cp "$(jena_classpath "$work")" arq.sparql --desc "$assembler" --query "$2" --results=tsv > "$3"
