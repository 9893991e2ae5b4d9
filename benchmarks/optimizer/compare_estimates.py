#!/usr/bin/env python3
"""Two runs of estimate-quality compared on the steps both measured.

    compare_estimates.py BEFORE.csv AFTER.csv

A BGP whose exact run crosses --timeout in one run and not the other changes
the sets the runs' own percentiles are taken over; here each set (queries,
random) is taken over the (bgp, component, step) both runs have, for the
planner's sample (walks_128) and Wander Join's 128 walks (plain_128), and the
steps whose planner estimate changed are counted, better and worse.
"""
import sys

COLUMNS = {"walks_128": 6, "plain_128": 9}
EXACT = 4


def read_steps(path):
    steps = {}
    for line in open(path):
        fields = line.strip().split(",")
        if len(fields) == 10 and fields[0] in ("queries", "random") and fields[3].isdigit():
            steps[tuple(fields[:4])] = fields
    return steps


def q_error(estimate, exact):
    estimate, exact = max(float(estimate), 1.0), max(float(exact), 1.0)
    return max(estimate / exact, exact / estimate)


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def summary(values):
    return (f"median {percentile(values, .5):.2f} p90 {percentile(values, .9):.2f} "
            f"p99 {percentile(values, .99):.1f} max {max(values):.3g}")


def main():
    before, after = read_steps(sys.argv[1]), read_steps(sys.argv[2])
    common = sorted(set(before) & set(after))
    for kind in ("queries", "random"):
        keys = [k for k in common if k[0] == kind]
        if not keys:
            continue
        for name, column in COLUMNS.items():
            old = [q_error(before[k][column], before[k][EXACT]) for k in keys]
            new = [q_error(after[k][column], after[k][EXACT]) for k in keys]
            print(f"{kind} {name}, {len(keys)} steps: before {summary(old)} | after {summary(new)}")
        planner = COLUMNS["walks_128"]
        moved = [(q_error(before[k][planner], before[k][EXACT]), q_error(after[k][planner], after[k][EXACT]))
                 for k in keys if before[k][planner] != after[k][planner]]
        print(f"{kind}: the planner's estimate changed on {len(moved)} steps, "
              f"better on {sum(new < old for old, new in moved)}, worse on {sum(new > old for old, new in moved)}")


if __name__ == "__main__":
    main()
