#!/usr/bin/env python3
"""Any SPARQL queries (ASK, CONSTRUCT, aggregates, ...) on a running Virtuoso
through HTTP, every answer fetched, timed and compared with gsparql's
(issue 44's operator benchmark; ../shared/tools/virtuoso_bench.py takes only
SELECT ... WHERE queries).

    virtuoso_operators.py time HTTP_PORT QDIR GRAPH OUT_TSV [RUNS]
        per query: one untimed run, then RUNS (3) timed ones on one keep-alive
        connection (POST /sparql, default-graph-uri=GRAPH); writes query,
        answer size and the median ms.
    virtuoso_operators.py answers GSPARQL DB HTTP_PORT QDIR GRAPH
        per query: Virtuoso's answer beside `gsparql query --backend cpu`'s,
        normalised (numbers compared to 9 significant digits, blank node
        labels ignored, xsd:string dropped); prints query, sizes and
        "same" or how they differ.
    virtuoso_operators.py summary DIR
        DIR/gsparql-R.txt (`gsparql bench --backend cpu,auto`) and
        DIR/virtuoso-R.tsv (time) per round R: per query the mean of the
        rounds' medians, Virtuoso / gsparql per backend, and the geometric mean.
"""
import collections
import glob
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from virtuoso_compare import read_bench  # noqa: E402

GRAPH_FORMS = ("CONSTRUCT", "DESCRIBE")
NUMERIC = {"http://www.w3.org/2001/XMLSchema#" + t for t in
           ("integer", "decimal", "double", "float", "int", "long", "short", "byte", "nonNegativeInteger",
            "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong")}


def query_files(folder):
    return sorted(f for f in glob.glob(os.path.join(folder, "*.rq")))


def form_of(text):
    """SELECT, ASK, CONSTRUCT or DESCRIBE: the first of them outside comments and IRIs."""
    body = re.sub(r"<[^>\s]*>", "", "\n".join(line.split("#")[0] for line in text.splitlines()))
    match = re.search(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b", body, re.IGNORECASE)
    return match.group(1).upper() if match else "SELECT"


class Virtuoso:
    def __init__(self, port, graph):
        self.port, self.graph, self.conn = int(port), graph, None

    def ask(self, text):
        """The answer's bytes and the milliseconds it took, the body read whole."""
        accept = "text/plain" if form_of(text) in GRAPH_FORMS else "application/sparql-results+json"
        body = urllib.parse.urlencode({"query": text, "default-graph-uri": self.graph})
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
                start = time.perf_counter()
                self.conn.request("POST", "/sparql", body=body, headers={
                    "Content-Type": "application/x-www-form-urlencoded", "Accept": accept})
                response = self.conn.getresponse()
                data = response.read()
                ms = (time.perf_counter() - start) * 1000
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}: {data[:300]!r}")
                return data, ms
            except (http.client.HTTPException, OSError):
                self.conn = None
                if attempt:
                    raise


def normalised_term(term):
    kind, value = term.get("type"), term.get("value", "")
    if kind == "uri":
        return "<" + value + ">"
    if kind == "bnode":
        return "_:"
    datatype = term.get("datatype", "")
    if datatype in NUMERIC:
        try:
            return "number " + f"{float(value):.9g}"
        except ValueError:
            pass
    if datatype == "http://www.w3.org/2001/XMLSchema#string":
        datatype = ""
    return json.dumps(value) + ("@" + term["xml:lang"].lower() if "xml:lang" in term else "") + \
        ("^^" + datatype if datatype else "")


def answer_of(data, form):
    """A comparable form of an answer: a boolean, a count of triples, or a multiset of rows."""
    if form in GRAPH_FORMS:
        return ("triples", sum(1 for line in data.decode("utf-8", "replace").splitlines() if line.strip()))
    parsed = json.loads(data)
    if "boolean" in parsed:
        return ("boolean", parsed["boolean"])
    variables = sorted(parsed["head"].get("vars", []))
    rows = collections.Counter(
        tuple(normalised_term(b[v]) if v in b else "" for v in variables) for b in parsed["results"]["bindings"])
    return ("rows", rows)


def size_of(answer):
    kind, value = answer
    return sum(value.values()) if kind == "rows" else value


def time_queries(port, folder, graph, out, runs):
    virtuoso = Virtuoso(port, graph)
    with open(out, "w") as tsv:
        tsv.write("query\tvirtuoso_size\tvirtuoso_median_ms\n")
        for path in query_files(folder):
            text = open(path).read()
            name = os.path.splitext(os.path.basename(path))[0]
            try:
                data, _ = virtuoso.ask(text)
                times = [virtuoso.ask(text)[1] for _ in range(runs)]
                size = size_of(answer_of(data, form_of(text)))
                tsv.write(f"{name}\t{size}\t{statistics.median(times):.3f}\n")
            except Exception as e:  # a query Virtuoso refuses is reported, not fatal
                tsv.write(f"{name}\terror\t{str(e)[:200]!r}\n")
            tsv.flush()


def compare_answers(gsparql, db, port, folder, graph):
    virtuoso = Virtuoso(port, graph)
    for path in query_files(folder):
        text = open(path).read()
        name = os.path.splitext(os.path.basename(path))[0]
        form = form_of(text)
        fmt = "nt" if form in GRAPH_FORMS else "json"
        ours = subprocess.run([gsparql, "query", "--db", db, "--backend", "cpu", "--format", fmt, "-f", path],
                              capture_output=True, timeout=600)
        try:
            mine = answer_of(ours.stdout, form)
            theirs = answer_of(virtuoso.ask(text)[0], form)
        except Exception as e:
            print(f"{name}\terror: {str(e)[:200]!r} {ours.stderr[:200]!r}")
            continue
        if mine == theirs:
            verdict = "same"
        elif mine[0] == "rows":
            only_ours = sum((mine[1] - theirs[1]).values())
            only_theirs = sum((theirs[1] - mine[1]).values())
            verdict = f"differ: {only_ours} rows only gsparql's, {only_theirs} only Virtuoso's"
            sample = list((mine[1] - theirs[1]).elements())[:2] + list((theirs[1] - mine[1]).elements())[:2]
            verdict += f"; e.g. {sample}"
        else:
            verdict = f"differ: gsparql {mine[1]}, Virtuoso {theirs[1]}"
        print(f"{name}\tgsparql {size_of(mine)}\tVirtuoso {size_of(theirs)}\t{verdict}")


def geometric_mean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def summary(folder):
    rounds = sorted(os.path.basename(p)[len("gsparql-"):-len(".txt")]
                    for p in glob.glob(os.path.join(folder, "gsparql-*.txt")))
    ours = {r: read_bench(os.path.join(folder, f"gsparql-{r}.txt")) for r in rounds}
    theirs = collections.defaultdict(list)
    for r in rounds:
        for line in open(os.path.join(folder, f"virtuoso-{r}.tsv")).read().splitlines()[1:]:
            name, size, ms = line.split("\t")
            if size != "error":
                theirs[name].append(float(ms))
    modes = list(ours[rounds[0]])
    print("query\tvirtuoso_ms\t" + "\t".join(f"{m}_ms\tvirtuoso/{m}" for m in modes))
    ratios = collections.defaultdict(list)
    for name in sorted(theirs):
        virtuoso_ms = statistics.mean(theirs[name])
        cells = [name, f"{virtuoso_ms:.3f}"]
        for m in modes:
            mine = [ours[r][m][name][1] for r in rounds if name in ours[r].get(m, {})]
            if not mine:
                cells += ["", ""]
                continue
            ms = statistics.mean(mine)
            ratios[m].append(virtuoso_ms / ms)
            cells += [f"{ms:.3f}", f"{virtuoso_ms / ms:.2f}"]
        print("\t".join(cells))
    for m in modes:
        slower = sum(1 for x in ratios[m] if x < 1)
        print(f"# {m}: geometric mean Virtuoso/gsparql {geometric_mean(ratios[m]):.2f} over {len(ratios[m])} "
              f"queries, {slower} slower than Virtuoso")


def main():
    mode = sys.argv[1]
    if mode == "time":
        time_queries(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 3)
    elif mode == "answers":
        compare_answers(*sys.argv[2:7])
    elif mode == "summary":
        summary(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
