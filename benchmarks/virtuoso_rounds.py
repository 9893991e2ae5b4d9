#!/usr/bin/env python3
"""gsparql beside Virtuoso over interleaved rounds (scripts/gpu-virtuoso-run.sh rounds).

    virtuoso_rounds.py DIR

DIR holds, per round R, gsparql-R.txt (`gsparql bench` outputs, each after a
line "== ... --backend MODE") and virtuoso-R.tsv (../shared/tools/virtuoso_bench.py).
A machine's drift then falls on both engines alike. Prints, per mode, the
geometric mean of Virtuoso HTTP / gsparql in each round, and over the
per-query medians of all rounds; queries Virtuoso's HTTP endpoint cut at its
row limit, or whose rows differ from Virtuoso's in any round, are left out
and counted.
"""
import glob
import os
import statistics
import sys

from virtuoso_compare import geometric_mean, read_bench, read_virtuoso


def rounds_in(folder):
    names = sorted(glob.glob(os.path.join(folder, "gsparql-*.txt")))
    return [os.path.basename(n)[len("gsparql-"):-len(".txt")] for n in names]


def main():
    folder = sys.argv[1]
    rounds = rounds_in(folder)
    gsparql = {r: read_bench(os.path.join(folder, f"gsparql-{r}.txt")) for r in rounds}
    virtuoso = {r: read_virtuoso(os.path.join(folder, f"virtuoso-{r}.tsv")) for r in rounds}
    modes = list(gsparql[rounds[0]])
    queries = sorted(virtuoso[rounds[0]])
    usable, differing = [], 0
    for q in queries:
        same = all(q in virtuoso[r] and all(q in gsparql[r][m] for m in modes) for r in rounds)
        if same:
            rows = {str(gsparql[r][m][q][0]) for r in rounds for m in modes}
            counts = {virtuoso[r][q][0] for r in rounds} | {virtuoso[r][q][1] for r in rounds}
            same = len(rows) == 1 and rows == counts
        if not same:
            differing += 1
        elif all(virtuoso[r][q][2] == virtuoso[r][q][1] and virtuoso[r][q][3] for r in rounds):
            usable.append(q)
    print(f"# {len(rounds)} rounds; {len(usable)} queries compared; rows differ on {differing}; "
          f"{len(queries) - len(usable) - differing} cut by Virtuoso's HTTP row limit")
    for m in modes:
        per_round = [geometric_mean([virtuoso[r][q][3] / gsparql[r][m][q][1] for q in usable]) for r in rounds]
        medians = geometric_mean([statistics.median(virtuoso[r][q][3] for r in rounds) /
                                  statistics.median(gsparql[r][m][q][1] for r in rounds) for q in usable])
        cells = ", ".join(f"{x:.2f}" for x in per_round)
        print(f"# Virtuoso http / gsparql {m}: rounds {cells}; over per-query medians {medians:.2f}")
    http = [geometric_mean([virtuoso[r][q][3] for q in usable]) for r in rounds]
    print("# Virtuoso http ms per query (geometric mean), rounds: " + ", ".join(f"{x:.3f}" for x in http))
    for m in modes:
        times = [geometric_mean([gsparql[r][m][q][1] for q in usable]) for r in rounds]
        print(f"# gsparql {m} ms per query (geometric mean), rounds: " + ", ".join(f"{x:.3f}" for x in times))


if __name__ == "__main__":
    main()
