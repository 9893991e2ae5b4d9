import subprocess, time, statistics, sys
def t(args, n=7):
    xs=[]
    for _ in range(n):
        s=time.perf_counter(); subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); xs.append((time.perf_counter()-s)*1000)
    return statistics.median(xs)
G=sys.argv[1]; db=sys.argv[2]
print("true", t(["/bin/true"]))
print("version", t([G,"version"]))
print("ASK {}", t([G,"query","--db",db,"ASK {}"]))
print("ASK {} cpu", t([G,"query","--db",db,"--backend","cpu","ASK {}"]))
print("N1 cpu", t([G,"query","--db",db,"--backend","cpu","-f","benchmarks/queries/heavy_counts/N1_path3.rq"]))
