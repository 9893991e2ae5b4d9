set -x
dpkg -l gsparql 2>/dev/null | tail -1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./tmp/gsparql_0.1.0_amd64.deb python3-rdflib > /tmp/apt.log 2>&1; echo "apt exit status $?"
grep -c "^Setting up" /tmp/apt.log
dpkg -l gsparql | tail -1
which gsparql
gsparql --version
gsparql load --db /tmp/sample /tmp/sf1.nt.zst
gsparql query --db /tmp/sample --format tsv 'SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY DESC(?n) LIMIT 3'
ls /usr/share/gsparql/web /usr/lib/libgsparql.so* /usr/include/gsparql | head -20
python3 - <<'PY'
import gsparql, rdflib
print("gsparql module:", gsparql.__file__)
db = gsparql.Database("/tmp/sample")
rows = db.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", terms="python")
print("triples via gsparql.Database:", rows[0]["n"])
graph = rdflib.Graph(store="gsparql")
graph.open("/tmp/sample")
print("len(graph):", len(graph))
q = """PREFIX wsdbm: <http://db.uwaterloo.ca/~galuc/wsdbm/>
SELECT ?user (COUNT(?f) AS ?follows) WHERE { ?user wsdbm:follows ?f } GROUP BY ?user ORDER BY DESC(?follows) LIMIT 3"""
for row in graph.query(q):
    print(row.user, row.follows)
PY
