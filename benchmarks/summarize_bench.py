#!/usr/bin/env python3
"""Per-template medians of several `gsparql bench` CSVs, side by side.

    summarize_bench.py [--engine] EXPECTED.tsv NAME=FILE.csv [NAME=FILE.csv ...]

The first run is the reference for the ratio columns (other / first). Row
counts are checked against the reference answers (EXPECTED.tsv). With
--engine the engine time (up to the id table, before decoding) is used
instead of the time with all rows decoded.
"""
import csv
import statistics
import sys
from collections import defaultdict


def read_bench(path, engine):
    rows = {}
    with open(path) as f:
        for rec in csv.reader(l for l in f if l.strip() and not l.startswith("#")):
            if len(rec) >= 6 and rec[0] not in ("query", "template"):
                rows[rec[0]] = (int(rec[2]), float(rec[6] if engine else rec[4]))
            elif rec and rec[0] == "template":
                break
    return rows


def main():
    args = sys.argv[1:]
    engine = args[0] == "--engine"
    if engine:
        args = args[1:]
    expected = {}
    with open(args[0]) as f:
        next(f)
        for line in f:
            name, count, _ = line.rstrip("\n").split("\t")
            expected[name] = int(count)
    runs = [(arg.split("=", 1)[0], read_bench(arg.split("=", 1)[1], engine)) for arg in args[1:]]
    mismatches = [f"{run} {q}: {rows} rows, reference {expected[q]}"
                  for run, data in runs for q, (rows, _) in data.items() if q in expected and rows != expected[q]]
    first_name, first = runs[0]
    templates = defaultdict(list)
    for q in first:
        templates[q.split("_")[0]].append(q)
    header = ["template", "queries"] + [f"{name}_ms" for name, _ in runs] + [f"{name}/{first_name}" for name, _ in runs[1:]]
    print(",".join(header))
    for template in sorted(templates):
        queries = templates[template]
        medians = [statistics.median(data[q][1] for q in queries if q in data) for _, data in runs]
        ratios = [m / medians[0] for m in medians[1:]]
        print(",".join([template, str(len(queries))] + [f"{m:.3f}" for m in medians] + [f"{r:.1f}" for r in ratios]))
    all_medians = [statistics.median(v[1] for v in data.values()) for _, data in runs]
    print(",".join(["all", str(len(first))] + [f"{m:.3f}" for m in all_medians] +
                   [f"{m / all_medians[0]:.1f}" for m in all_medians[1:]]))
    print("row counts: all match the reference" if not mismatches else "row count MISMATCHES:\n" + "\n".join(mismatches))


if __name__ == "__main__":
    main()
