#!/usr/bin/env python3
"""The first query of a process, against the same query warm (issue 44's fixed costs).

For each .rq file of FOLDER, on one backend:
- one-shot: `gsparql query --time` as a process of its own, RUNS times; the
  process's wall time and the phases it reports (open the database, parse,
  plan, execute); beside them, in the same rounds, a process that only
  prints `--version` (what any process of the binary costs);
- cold: `gsparql bench --cold` (the database opened afresh before each run,
  in a process already started);
- warm: `gsparql bench` (after a warm-up in the same process).
The one-shot processes of all queries run in rounds (query 1..n, then again),
so that a query is not always measured right after its own previous run.
Prints a CSV line per query (medians, milliseconds): first_over_warm is
parse + plan + execute of the one-shot process less the warm time (the
query's own first-use costs), and the geometric means.

  benchmarks/first_query.py DB FOLDER [--backend cpu|gpu|auto] [--runs N]

GSPARQL: the binary (default build/default/cli/gsparql).
"""
import argparse
import csv
import io
import math
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHASES = re.compile(r"time: open ([\d.]+) ms, parse ([\d.]+) ms, plan ([\d.]+) ms, execute and write ([\d.]+) ms")


def version_process(gsparql):
    start = time.perf_counter()
    subprocess.run([gsparql, "--version"], stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000


def one_shot(gsparql, db, query, backend):
    start = time.perf_counter()
    done = subprocess.run([gsparql, "query", "--db", db, "-f", str(query), "--backend", backend, "--time",
                           "--format", "tsv"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        sys.exit(f"{query.name}: gsparql query failed: {done.stderr.strip()}")
    phases = PHASES.search(done.stderr)
    if not phases:
        sys.exit(f"{query.name}: no time line in: {done.stderr.strip()}")
    return [wall] + [float(p) for p in phases.groups()]


def bench_medians(gsparql, db, folder, backend, cold):
    args = [gsparql, "bench", "--db", db, "--queries", str(folder), "--backend", backend, "--repeat", "5"]
    done = subprocess.run(args + (["--cold"] if cold else []), capture_output=True, text=True, check=True)
    header = done.stdout.index("query,template,")
    rows = csv.DictReader(io.StringIO(done.stdout[header:].split("\n\n")[0]))
    return {r["query"]: float(r["median_ms"]) for r in rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--runs", type=int, default=5)
    a = parser.parse_args()
    gsparql = os.environ.get("GSPARQL", str(ROOT / "build/default/cli/gsparql"))
    queries = sorted(a.folder.glob("*.rq"))
    shots = {q.stem: [] for q in queries}
    versions = []
    for _ in range(a.runs):
        versions.append(version_process(gsparql))
        for q in queries:
            shots[q.stem].append(one_shot(gsparql, a.db, q, a.backend))
    cold = bench_medians(gsparql, a.db, a.folder, a.backend, cold=True)
    warm = bench_medians(gsparql, a.db, a.folder, a.backend, cold=False)
    print(f"# {gsparql} on {a.db}, backend {a.backend}, {a.runs} one-shot processes per query")
    print(f"# a process printing --version: {statistics.median(versions):.2f} ms (median of {len(versions)})")
    print("query,oneshot_wall_ms,open_ms,parse_ms,plan_ms,execute_ms,cold_ms,warm_ms,first_over_warm_ms")
    ratios = []
    for name, runs in shots.items():
        wall, opening, parse, plan, execute = (statistics.median(column) for column in zip(*runs))
        first = statistics.median(r[2] + r[3] + r[4] for r in runs)
        print(f"{name},{wall:.2f},{opening:.3f},{parse:.3f},{plan:.3f},{execute:.3f},{cold[name]:.3f},"
              f"{warm[name]:.3f},{first - warm[name]:.3f}")
        ratios.append(wall / warm[name])
    print(f"# one-shot wall / warm, geometric mean: {math.exp(statistics.mean(map(math.log, ratios))):.1f}x")


if __name__ == "__main__":
    main()
