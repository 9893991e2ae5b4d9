#!/usr/bin/python3
"""Joins two `bench` CSVs (gsparql and a peer) and the reference row counts.

    compare_bench.py GSPARQL.csv PEER.csv EXPECTED.tsv|- [PEER_NAME]

Prints per query and per template: gsparql and peer medians, the speed-up,
and whether both engines returned the reference number of rows (with `-`
for EXPECTED: whether both returned the same number of rows).
"""
import csv
import statistics
import sys
from collections import defaultdict


def read_bench(path):
    with open(path) as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    rows = {}
    for rec in csv.DictReader(lines):
        if rec.get("min_ms") and rec["query"] != "template":
            rows[rec["query"]] = rec
        if rec["query"] == "template":
            break
    return rows


def read_expected(path):
    expected = {}
    if path == "-":
        return expected
    with open(path) as f:
        next(f)
        for line in f:
            name, rows, _ = line.rstrip("\n").split("\t")
            expected[name] = int(rows)
    return expected


def main():
    ours, peer, expected = read_bench(sys.argv[1]), read_bench(sys.argv[2]), read_expected(sys.argv[3])
    peer_name = sys.argv[4] if len(sys.argv) > 4 else "peer"
    per_template = defaultdict(list)
    mismatches = []
    print(f"query,rows,reference_rows,gsparql_median_ms,{peer_name}_median_ms,speedup")
    for name in sorted(ours):
        a, b = ours[name], peer.get(name)
        ref = expected.get(name)
        if ref is not None and int(a["rows"]) != ref:
            mismatches.append(f"gsparql {name}: {a['rows']} rows, reference {ref}")
        if b is not None and ref is not None and int(b["rows"]) != ref:
            mismatches.append(f"{peer_name} {name}: {b['rows']} rows, reference {ref}")
        if b is not None and ref is None and int(b["rows"]) != int(a["rows"]):
            mismatches.append(f"{name}: gsparql {a['rows']} rows, {peer_name} {b['rows']}")
        ours_ms = float(a["median_ms"])
        peer_ms = float(b["median_ms"]) if b else float("nan")
        per_template[name.split("_")[0]].append((ours_ms, peer_ms))
        print(f"{name},{a['rows']},{ref},{ours_ms:.3f},{peer_ms:.3f},{peer_ms / ours_ms:.1f}")
    print()
    print(f"template,queries,gsparql_median_ms,{peer_name}_median_ms,speedup,slowest_query_speedup")
    for template in sorted(per_template):
        pairs = per_template[template]
        ours_median = statistics.median(p[0] for p in pairs)
        peer_median = statistics.median(p[1] for p in pairs)
        worst = min(p[1] / p[0] for p in pairs)
        print(f"{template},{len(pairs)},{ours_median:.3f},{peer_median:.3f},{peer_median / ours_median:.1f},{worst:.1f}")
    print()
    agreement = "all match the reference" if expected else f"gsparql and {peer_name} agree on every query"
    print(f"row counts: {agreement}" if not mismatches else "row count MISMATCHES:\n" + "\n".join(mismatches))


if __name__ == "__main__":
    main()
