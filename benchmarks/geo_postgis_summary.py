#!/usr/bin/env python3
"""summary.md from rounds.txt: per query the median (range) of gsparql's
round medians (bench's median_ms) and of PostGIS's "Time:" lines.
  benchmarks/geo_postgis_summary.py DIR/rounds.txt > DIR/summary.md
(benchmarks/geo_postgis.sh runs it at its end)."""
import statistics
import sys

gsparql, postgis = {}, {}
query = None
for line in open(sys.argv[1]):
    line = line.strip()
    fields = line.split(",")
    if len(fields) == 9 and fields[1] in ("a", "b", "c") and fields[0] != "query":
        gsparql.setdefault(fields[0], []).append(float(fields[4]))
    elif line.startswith("-- "):
        query = line[3:]
    elif line.startswith("Time:") and query:
        postgis.setdefault(query, []).append(float(line.split()[1]))
print("| query | gsparql ms | PostGIS ms | PostGIS / gsparql |\n|---|---:|---:|---:|")
for q in sorted(gsparql):
    g, p = gsparql[q], postgis[q]
    print(f"| {q} | {statistics.median(g):.3f} ({min(g):.3f}-{max(g):.3f}) | "
          f"{statistics.median(p):.3f} ({min(p):.3f}-{max(p):.3f}) | {statistics.median(p) / statistics.median(g):.2f} |")
