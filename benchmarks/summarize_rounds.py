#!/usr/bin/env python3
"""Rounds of `gsparql bench` CSVs named CONFIG-ROUND.csv, summarized.

    summarize_rounds.py FOLDER

Each query's time in a configuration is the median over the rounds of its
per-round medians. Prints the geometric mean per configuration (and, where
the CSVs have plan_median_ms, the share of planning in the time of the
queries above 1 ms), per template, and, for each optimizer, how often auto is within 10% of the
faster of cpu and gpu. Row counts must agree across configurations.
"""
import csv
import glob
import math
import os
import statistics
import sys
from collections import defaultdict


def read_bench(path):
    rows = {}
    with open(path) as f:
        for rec in csv.reader(f):
            if rec and rec[0] == "template":
                break
            if len(rec) >= 8 and rec[0] != "query":
                plan = float(rec[8]) if len(rec) >= 9 else 0.0
                rows[rec[0]] = (int(rec[2]), float(rec[4]), float(rec[7]), plan)
    return rows


def geomean(values):
    return math.exp(sum(math.log(max(v, 1e-6)) for v in values) / len(values))


def main():
    runs = defaultdict(list)
    for path in glob.glob(os.path.join(sys.argv[1], "*-*-*.csv")):
        config = os.path.basename(path).rsplit("-", 1)[0]
        runs[config].append(read_bench(path))
    times, counts = {}, defaultdict(set)
    for config, rounds in sorted(runs.items()):
        queries = set.intersection(*(set(r) for r in rounds))
        times[config] = {q: statistics.median(r[q][1] for r in rounds) for q in queries}
        for r in rounds:
            for q in queries:
                counts[q].add(r[q][0])
    queries = sorted(set.intersection(*(set(t) for t in times.values())))
    print(f"{len(queries)} queries; rounds per configuration: " +
          ", ".join(f"{c} {len(r)}" for c, r in sorted(runs.items())))
    print("queries whose row counts differ between runs:", [q for q in queries if len(counts[q]) > 1])
    print("\nconfiguration,geometric_mean_ms,median_max_q_error,p90_max_q_error,"
          "planning_share_above_1ms,queries_above_1ms")
    for config in sorted(times):
        q_errors = sorted(runs[config][0][q][2] for q in queries)  # a query's worst operator or step, first round
        heavy = [q for q in queries if times[config][q] >= 1]
        plan = sum(statistics.median(r[q][3] for r in runs[config]) for q in heavy)
        share = plan / sum(times[config][q] for q in heavy) if heavy else 0
        print(f"{config},{geomean([times[config][q] for q in queries]):.4f},"
              f"{q_errors[len(q_errors) // 2]:.2f},{q_errors[len(q_errors) * 9 // 10]:.2f},{share:.3f},{len(heavy)}")
    templates = defaultdict(list)
    for q in queries:
        templates[q.split("_")[0]].append(q)
    configs = sorted(times)
    print("\ntemplate," + ",".join(configs))
    for t, qs in sorted(templates.items()):
        print(t + "," + ",".join(f"{geomean([times[c][q] for q in qs]):.3f}" for c in configs))
    for optimizer in sorted({c.rsplit("-", 1)[0] for c in configs}):
        cpu, gpu, auto = (times.get(f"{optimizer}-{b}") for b in ("cpu", "gpu", "auto"))
        if not (cpu and gpu and auto):
            continue
        faster = {q: min(cpu[q], gpu[q]) for q in queries}
        within = sum(auto[q] <= 1.1 * faster[q] for q in queries)
        print(f"\n{optimizer}: auto within 10% of the faster of cpu and gpu on {within} of {len(queries)} queries; "
              f"geometric means: auto {geomean([auto[q] for q in queries]):.4f}, "
              f"per-query faster {geomean(list(faster.values())):.4f} ms")
        # Per template (issue 10's placement target): auto's geometric mean
        # against the faster of cpu's and gpu's.
        ratios = {t: geomean([auto[q] for q in qs]) /
                  min(geomean([cpu[q] for q in qs]), geomean([gpu[q] for q in qs])) for t, qs in templates.items()}
        print(f"{optimizer}: auto within 10% of the faster executor on {sum(r <= 1.1 for r in ratios.values())} "
              f"of {len(ratios)} templates; beyond: " +
              (", ".join(f"{t} {r:.2f}x" for t, r in sorted(ratios.items()) if r > 1.1) or "none"))


if __name__ == "__main__":
    main()
