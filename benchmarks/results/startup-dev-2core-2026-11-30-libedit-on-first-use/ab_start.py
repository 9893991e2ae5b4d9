import subprocess, time, statistics, sys
Q="benchmarks/results/first-query-dev-2core-2026-11-30/queries"
cmds = {
 "version": ["--version"],
 "L1_01": ["query","--db","/tmp/sf100v4","-f",f"{Q}/L1_01.rq","--backend","cpu","--format","tsv"],
 "S1_01": ["query","--db","/tmp/sf100v4","-f",f"{Q}/S1_01.rq","--backend","cpu","--format","tsv"],
}
bins={"old":"/tmp/gsparql-old","new":"/tmp/gsparql-new"}
res={(b,c):[] for b in bins for c in cmds}
rounds=int(sys.argv[1])
for r in range(rounds):
    order=list(bins) if r%2==0 else list(reversed(list(bins)))
    for c,args in cmds.items():
        for b in order:
            t=time.perf_counter(); subprocess.run([bins[b]]+args,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL,check=True); res[(b,c)].append((time.perf_counter()-t)*1000)
print("command,old_median_ms,new_median_ms,new/old")
for c in cmds:
    o=statistics.median(res[("old",c)]); n=statistics.median(res[("new",c)])
    print(f"{c},{o:.2f},{n:.2f},{n/o:.3f}")
print(f"# {rounds} rounds, ABBA order, wall time of each process (python perf_counter around subprocess.run)")
