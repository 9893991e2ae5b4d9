#!/usr/bin/env python3
"""Streamed against resident adjacency on the GPU (scripts/gpu-streaming-run.sh).

    streaming_summary.py BENCH_TXT TRANSFERS_CSV

BENCH_TXT holds `gsparql bench` CSVs, each after a line "== resident: ..." or
"== streamed: ...". A query's time per mode is the median of its medians over
the rounds of that mode. Prints per query: rows (which must agree), resident
and streamed ms and their ratio, then the geometric mean of the ratios. From
TRANSFERS_CSV (per query, in a fresh process: copy_ms, waited_ms): the share
of the time spent copying that the query did not wait for.
"""
import csv
import math
import statistics
import sys
from collections import defaultdict


def read_rounds(path):
    rounds, mode = defaultdict(list), None
    with open(path) as f:
        for line in f:
            if line.startswith("== "):
                mode = line[3:].split(":")[0]
                rounds[mode].append({})
                continue
            rec = next(csv.reader([line]))
            if mode and len(rec) >= 8 and rec[0] != "query":
                rounds[mode][-1][rec[0]] = (int(rec[2]), float(rec[4]))
    return rounds


def main():
    rounds = read_rounds(sys.argv[1])
    queries = sorted(set().union(*(r.keys() for rs in rounds.values() for r in rs)))
    print("query,rows,resident_ms,streamed_ms,streamed/resident")
    ratios = []
    for q in queries:
        rows = {r[q][0] for rs in rounds.values() for r in rs if q in r}
        ms = {m: statistics.median(r[q][1] for r in rs if q in r) for m, rs in rounds.items()
              if any(q in r for r in rs)}
        if len(ms) < 2:
            print(f"{q},missing in a mode")
            continue
        ratio = ms["streamed"] / ms["resident"]
        ratios.append(ratio)
        flag = "" if len(rows) == 1 else ",ROWS DIFFER"
        print(f"{q},{'/'.join(map(str, sorted(rows)))},{ms['resident']:.3f},{ms['streamed']:.3f},{ratio:.2f}{flag}")
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean streamed/resident over {len(ratios)} queries: {mean:.2f}")
    copy = waited = 0.0
    streamed = 0
    with open(sys.argv[2]) as f:
        for rec in csv.DictReader(f):
            copy += float(rec["copy_ms"])
            waited += float(rec["waited_ms"])
            streamed += float(rec["copy_ms"]) > 0
    if copy > 0:
        print(f"fresh process per query: {streamed} queries streamed; copies {copy:.1f} ms, waited {waited:.1f} ms: "
              f"{100 * (1 - waited / copy):.1f}% of the transfer time hidden behind computation")


if __name__ == "__main__":
    main()
