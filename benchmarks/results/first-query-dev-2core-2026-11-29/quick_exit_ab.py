import subprocess, time, statistics, os
G="build/default/cli/gsparql"
def t(args, env, n=11):
    xs=[]
    for _ in range(n):
        s=time.perf_counter(); subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env); xs.append((time.perf_counter()-s)*1000)
    return round(statistics.median(xs),1)
plain=dict(os.environ); quick=dict(os.environ, GSPARQL_QUICK_EXIT="1")
for r in range(2):
  for name, env in (("plain", plain), ("quick", quick)):
    print(r, name, "ASK", t([G,"query","--db","/tmp/sf100-v3","--backend","cpu","ASK {}"], env), "N1", t([G,"query","--db","/tmp/sf100-v3","--backend","cpu","-f","benchmarks/queries/heavy_counts/N1_path3.rq"], env, 7), "S1", t([G,"query","--db","/tmp/sf100-v3","--backend","cpu","-f","/tmp/fq/S_user0_all_predicates.rq"], env, 7))
