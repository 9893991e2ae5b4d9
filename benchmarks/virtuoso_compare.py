#!/usr/bin/env python3
"""gsparql beside Virtuoso, per query, from one run on the same data.

    virtuoso_compare.py BENCH.txt VIRTUOSO.tsv [--counts COUNTS.tsv]

BENCH.txt: `gsparql bench` outputs, each after a line "== ... --backend MODE"
(scripts/gpu-virtuoso-run.sh). VIRTUOSO.tsv: ../shared/tools/virtuoso_bench.py's
output. Times are medians with every row decoded (gsparql) and the last,
warm run fetching every row (Virtuoso, isql and HTTP). Row counts are
cross-checked: gsparql's against the rows Virtuoso's isql fetched and its
COUNT(*). Virtuoso's HTTP endpoint cuts a result at its ResultSetMaxRows
(1,048,576 here): such a query is marked "cut" and left out of the HTTP
ratios. Prints a table and the geometric means of Virtuoso / gsparql per
mode, through isql and through HTTP.

With --counts, BENCH.txt benches each query's COUNT(*) form and is compared
with Virtuoso's COUNT(*) of the same pattern (its count columns); COUNTS.tsv
(query, count: gsparql's answers) is checked against Virtuoso's counts.
"""
import argparse
import csv
import math
import re
import sys


def read_bench(path):
    modes, mode = {}, None
    for line in open(path):
        header = re.match(r"^== .*?--backend (.+)$", line.strip())
        if header:
            # `bench --backend cpu,auto` heads each backend's table "--backend cpu (interleaved with ...)".
            mode = re.sub(r" \(interleaved with .*\)$", "", header.group(1))
            modes[mode] = {}
            continue
        fields = line.strip().split(",")
        if mode and len(fields) >= 8 and fields[0] not in ("query",) and "_" in fields[0]:
            modes[mode][fields[0]] = (int(fields[2]), float(fields[4]))
    return modes


def read_virtuoso(path, form="all"):
    """Per query: Virtuoso's count, the rows isql and HTTP gave, and the last run's HTTP and isql ms of `form`
    (all: the query as written; count: COUNT(*) over its pattern, one row)."""
    out = {}
    with open(path) as f:
        for rec in csv.DictReader(f, delimiter="\t"):
            runs = sorted(k for k in rec if k.startswith(f"http_{form}_ms_"))
            isql = sorted(k for k in rec if k.startswith(f"isql_{form}_ms_"))
            number = lambda v: float(v) if v not in ("", "ERR", None) else None
            rows = (rec["virt_rows"], rec["http_rows"]) if form == "all" else ("1", "1")
            out[rec["query"]] = (rec["virt_count"], *rows, number(rec[runs[-1]]), number(rec[isql[-1]]))
    return out


def read_counts(path):
    with open(path) as f:
        return dict(line.rstrip("\n").split("\t")[:2] for line in f if "\t" in line)


def geometric_mean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    parser = argparse.ArgumentParser(description="gsparql beside Virtuoso, per query, from one run on the same data.")
    parser.add_argument("bench", help="gsparql bench outputs, each after a line '== ... --backend MODE'")
    parser.add_argument("virtuoso", help="virtuoso_bench.py's TSV")
    parser.add_argument("--counts", help="gsparql's counts (query TAB count): compare the COUNT(*) forms")
    args = parser.parse_args()
    counts = read_counts(args.counts) if args.counts else None
    gsparql, virtuoso = read_bench(args.bench), read_virtuoso(args.virtuoso, "count" if counts else "all")
    if not virtuoso:
        sys.exit(f"{args.virtuoso}: no query measured (Virtuoso answered none, or the file is not virtuoso_bench.py's)")
    modes = list(gsparql)
    print("query,rows," + ",".join(f"gsparql_{m.replace(' ', '_')}_ms" for m in modes) +
          ",virtuoso_isql_ms,virtuoso_http_ms,virtuoso_http_rows,rows_match")
    ratios = {(m, via): [] for m in modes for via in ("isql", "http")}
    mismatches = 0
    for query in sorted(virtuoso):
        count, isql_rows, http_rows, http_ms, isql_ms = virtuoso[query]
        rows = {gsparql[m][query][0] for m in modes if query in gsparql[m]}
        if counts is None:
            match = len(rows) == 1 and str(next(iter(rows))) == isql_rows == count
        else:
            match = rows == {1} and counts.get(query) == count
        mismatches += not match
        cut = http_rows != isql_rows
        times = [gsparql[m].get(query, (None, None))[1] for m in modes]
        for m, t in zip(modes, times):
            # isql reports whole milliseconds: a 0 is under 1 ms, left out.
            if t and isql_ms:
                ratios[(m, "isql")].append(isql_ms / t)
            if t and http_ms and not cut:
                ratios[(m, "http")].append(http_ms / t)
        cells = [f"{t:.3f}" if t is not None else "" for t in times]
        isql_cell = "" if isql_ms is None else f"{isql_ms:g}"
        http_cell = "" if http_ms is None else f"{http_ms:g}"
        print(f"{query},{isql_rows if counts is None else count},{','.join(cells)},{isql_cell},{http_cell},"
              f"{http_rows}{' (cut)' if cut else ''},{'yes' if match else 'NO'}")
    for (m, via), r in ratios.items():
        if r:
            print(f"# Virtuoso {via} / gsparql {m}: geometric mean {geometric_mean(r):.2f} over {len(r)} queries"
                  f" (gsparql faster on {sum(x > 1 for x in r)}, lowest {min(r):.2f})")
    print(f"# rows differ on {mismatches} of {len(virtuoso)} queries")


if __name__ == "__main__":
    try:
        main()
    except OSError as e:
        sys.exit(f"{e.filename}: {e.strerror}")
