#!/usr/bin/env python3
"""gsparql beside Virtuoso, per query, from one run on the same data.

    virtuoso_compare.py BENCH.txt VIRTUOSO.tsv

BENCH.txt: `gsparql bench` outputs, each after a line "== ... --backend MODE"
(scripts/gpu-virtuoso-run.sh). VIRTUOSO.tsv: ../shared/tools/virtuoso_bench.py's
output. Times are medians with every row decoded (gsparql) and the last,
warm run fetching every row (Virtuoso, isql and HTTP). Row counts are
cross-checked: gsparql's against the rows Virtuoso's isql fetched and its
COUNT(*). Virtuoso's HTTP endpoint cuts a result at its ResultSetMaxRows
(1,048,576 here): such a query is marked "cut" and left out of the HTTP
ratios. Prints a table and the geometric means of Virtuoso / gsparql per
mode, through isql and through HTTP.
"""
import csv
import math
import re
import sys


def read_bench(path):
    modes, mode = {}, None
    for line in open(path):
        header = re.match(r"^== .*--backend (.+)$", line.strip())
        if header:
            mode = header.group(1)
            modes[mode] = {}
            continue
        fields = line.strip().split(",")
        if mode and len(fields) >= 8 and fields[0] not in ("query",) and "_" in fields[0]:
            modes[mode][fields[0]] = (int(fields[2]), float(fields[4]))
    return modes


def read_virtuoso(path):
    out = {}
    with open(path) as f:
        for rec in csv.DictReader(f, delimiter="\t"):
            runs = sorted(k for k in rec if k.startswith("http_all_ms_"))
            isql = sorted(k for k in rec if k.startswith("isql_all_ms_"))
            number = lambda v: float(v) if v not in ("", "ERR", None) else None
            out[rec["query"]] = (rec["virt_count"], rec["virt_rows"], rec["http_rows"], number(rec[runs[-1]]),
                                 number(rec[isql[-1]]))
    return out


def geometric_mean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    gsparql, virtuoso = read_bench(sys.argv[1]), read_virtuoso(sys.argv[2])
    modes = list(gsparql)
    print("query,rows," + ",".join(f"gsparql_{m.replace(' ', '_')}_ms" for m in modes) +
          ",virtuoso_isql_ms,virtuoso_http_ms,virtuoso_http_rows,rows_match")
    ratios = {(m, via): [] for m in modes for via in ("isql", "http")}
    mismatches = 0
    for query in sorted(virtuoso):
        count, isql_rows, http_rows, http_ms, isql_ms = virtuoso[query]
        rows = {gsparql[m][query][0] for m in modes if query in gsparql[m]}
        match = len(rows) == 1 and str(next(iter(rows))) == isql_rows == count
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
        print(f"{query},{isql_rows},{','.join(cells)},{isql_cell},{http_cell},"
              f"{http_rows}{' (cut)' if cut else ''},{'yes' if match else 'NO'}")
    for (m, via), r in ratios.items():
        if r:
            print(f"# Virtuoso {via} / gsparql {m}: geometric mean {geometric_mean(r):.2f} over {len(r)} queries")
    print(f"# rows differ on {mismatches} of {len(virtuoso)} queries")


if __name__ == "__main__":
    main()
