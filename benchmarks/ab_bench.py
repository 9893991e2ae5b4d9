#!/usr/bin/env python3
"""Before/after comparison of `gsparql bench` CSVs taken in interleaved rounds.

    ab_bench.py [--engine] [--only FILE] EXPECTED.tsv BEFORE=a1.csv,a2.csv,... AFTER=b1.csv,b2.csv,...

Machines are noisy from one minute to the next, so the two binaries run in
alternating rounds (ABBA...) and each query's time is the median over the
rounds of its per-round median. Prints, per template, the median of those
times and of the per-query ratios (after/before), then the geometric mean of
the per-query ratios over all queries. Row counts are checked against the
reference answers and between the two sides. --only FILE: only the queries
that FILE names, one a line, each line's first word (up to a colon).
"""
import csv
import math
import statistics
import sys
from collections import defaultdict


def read_bench(path, engine):
    rows = {}
    with open(path) as f:
        for rec in csv.reader(l for l in f if l.strip() and not l.startswith("#")):
            if rec and rec[0] == "template":
                break
            if len(rec) >= 7 and rec[0] != "query":
                rows[rec[0]] = (int(rec[2]), float(rec[6] if engine else rec[4]))
    return rows


def pooled(files, engine):
    """Per query: rows and the median over rounds of the per-round medians."""
    rounds = [read_bench(f, engine) for f in files]
    queries = set.intersection(*(set(r) for r in rounds))
    return {q: ({r[q][0] for r in rounds}, statistics.median(r[q][1] for r in rounds)) for q in queries}


def main():
    args = sys.argv[1:]
    engine = args[0] == "--engine"
    if engine:
        args = args[1:]
    only = None
    if args[0] == "--only":
        with open(args[1]) as f:
            only = {line.split(":")[0].split()[0] for line in f if line.strip()}
        args = args[2:]
    with open(args[0]) as f:
        next(f)
        expected = {line.split("\t")[0]: int(line.split("\t")[1]) for line in f if line.strip()}
    (before_name, before_files), (after_name, after_files) = (a.split("=", 1) for a in args[1:3])
    before = pooled(before_files.split(","), engine)
    after = pooled(after_files.split(","), engine)
    queries = sorted(q for q in set(before) & set(after) if only is None or q in only)
    problems = []
    for q in queries:
        counts = before[q][0] | after[q][0]
        if len(counts) != 1 or (q in expected and counts != {expected[q]}):
            problems.append(f"{q}: rows {sorted(counts)}, reference {expected.get(q)}")
    templates = defaultdict(list)
    for q in queries:
        templates[q.split("_")[0]].append(q)
    print(f"template,queries,{before_name}_ms,{after_name}_ms,median_ratio,geomean_ratio")
    ratio = {q: after[q][1] / before[q][1] for q in queries}
    for t in sorted(templates):
        qs = templates[t]
        geo = math.exp(statistics.mean(math.log(ratio[q]) for q in qs))
        print(f"{t},{len(qs)},{statistics.median(before[q][1] for q in qs):.3f},"
              f"{statistics.median(after[q][1] for q in qs):.3f},{statistics.median(ratio[q] for q in qs):.2f},{geo:.2f}")
    geo = math.exp(statistics.mean(math.log(ratio[q]) for q in queries))
    print(f"all,{len(queries)},{statistics.median(before[q][1] for q in queries):.3f},"
          f"{statistics.median(after[q][1] for q in queries):.3f},{statistics.median(ratio.values()):.2f},{geo:.2f}")
    print(f"rounds: {len(before_files.split(','))} {before_name}, {len(after_files.split(','))} {after_name}")
    print("row counts: all match" if not problems else "row count MISMATCHES:\n" + "\n".join(problems))


if __name__ == "__main__":
    main()
