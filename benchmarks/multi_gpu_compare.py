#!/usr/bin/env python3
"""Per query, the median time on 1, 2, ... GPUs and the speed-up over one,
from `gsparql bench` runs of scripts/gpu-multi-run.sh heavy (sections headed
'== round R: ... --gpus N', ABBA rounds): each query's time with N GPUs is
the mean of its medians over the rounds with N. Also checks that every run
found the same number of rows.

    benchmarks/multi_gpu_compare.py BENCH_FILE...
"""
import re
import statistics
import sys
from collections import defaultdict


def read(path):
    times = defaultdict(lambda: defaultdict(list))  # query -> gpus -> medians
    rows = defaultdict(set)
    gpus = None
    for line in open(path, encoding="utf-8"):
        header = re.match(r"== round \d+: .* --gpus (\d+)", line)
        if header:
            gpus = int(header.group(1))
            continue
        fields = line.strip().split(",")
        if gpus is None or len(fields) < 9 or fields[0] in ("query", "template") or not fields[2].isdigit():
            continue
        times[fields[0]][gpus].append(float(fields[4]))
        rows[fields[0]].add(fields[2])
    return times, rows


def main():
    for path in sys.argv[1:]:
        times, rows = read(path)
        counts = sorted({g for per in times.values() for g in per})
        print(f"# {path}")
        print("query," + ",".join(f"gpus{g}_ms" for g in counts) + "," +
              ",".join(f"speedup{g}" for g in counts[1:]) + ",rows_alike")
        for query in sorted(times):
            means = {g: statistics.mean(times[query][g]) for g in counts if times[query][g]}
            one = means.get(1)
            speedups = [f"{one / means[g]:.2f}" if one and g in means else "" for g in counts[1:]]
            print(f"{query}," + ",".join(f"{means[g]:.3f}" if g in means else "" for g in counts) + "," +
                  ",".join(speedups) + f",{'yes' if len(rows[query]) == 1 else 'NO: ' + ' '.join(sorted(rows[query]))}")


if __name__ == "__main__":
    main()
