#!/usr/bin/env python3
"""gsparql beside Virtuoso, per query, from one run on the same data.

    virtuoso_compare.py BENCH.txt VIRTUOSO.tsv

BENCH.txt: `gsparql bench` outputs, each after a line "== ... --backend MODE"
(scripts/gpu-virtuoso-sf1000-run.sh). VIRTUOSO.tsv: ../shared/tools/virtuoso_bench.py's
output. Times are medians with every row decoded (gsparql) and the last,
warm run fetching every row (Virtuoso, isql and HTTP). Row counts are
cross-checked: gsparql's against Virtuoso's HTTP rows. Prints a table and
the geometric means of Virtuoso HTTP / gsparql per mode.
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
        if mode and len(fields) == 8 and fields[0] not in ("query",) and "_" in fields[0]:
            modes[mode][fields[0]] = (int(fields[2]), float(fields[4]))
    return modes


def read_virtuoso(path):
    out = {}
    with open(path) as f:
        for rec in csv.DictReader(f, delimiter="\t"):
            runs = sorted(k for k in rec if k.startswith("http_all_ms_"))
            isql = sorted(k for k in rec if k.startswith("isql_all_ms_"))
            number = lambda v: float(v) if v not in ("", "ERR", None) else None
            out[rec["query"]] = (rec["http_rows"], number(rec[runs[-1]]), number(rec[isql[-1]]))
    return out


def main():
    gsparql, virtuoso = read_bench(sys.argv[1]), read_virtuoso(sys.argv[2])
    modes = list(gsparql)
    print("query,rows," + ",".join(f"gsparql_{m.replace(' ', '_')}_ms" for m in modes) +
          ",virtuoso_isql_ms,virtuoso_http_ms,rows_match")
    ratios = {m: [] for m in modes}
    mismatches = 0
    for query in sorted(virtuoso):
        http_rows, http_ms, isql_ms = virtuoso[query]
        rows = {gsparql[m][query][0] for m in modes if query in gsparql[m]}
        match = len(rows) == 1 and str(next(iter(rows))) == http_rows
        mismatches += not match
        times = [gsparql[m].get(query, (None, None))[1] for m in modes]
        for m, t in zip(modes, times):
            if t and http_ms:
                ratios[m].append(http_ms / t)
        cells = [f"{t:.3f}" if t is not None else "" for t in times]
        print(f"{query},{http_rows},{','.join(cells)},{isql_ms or ''},{http_ms or ''},{'yes' if match else 'NO'}")
    for m in modes:
        r = ratios[m]
        if r:
            print(f"# Virtuoso HTTP / gsparql {m}: geometric mean {math.exp(sum(map(math.log, r)) / len(r)):.2f}"
                  f" over {len(r)} queries")
    print(f"# rows differ on {mismatches} of {len(virtuoso)} queries")


if __name__ == "__main__":
    main()
