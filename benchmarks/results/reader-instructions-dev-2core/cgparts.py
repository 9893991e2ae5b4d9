# Compares two cgparts.sh runs per query (median of the warm runs): instructions in all, in planning
# (Planner::planBgp) and in parsing (sparql::parseQuery). usage: cgparts.py REPEAT PREFIX_A PREFIX_B
import sys,subprocess,re,glob,csv,statistics
def parts(prefix):
    files=sorted(glob.glob(prefix+'.[0-9]*'),key=lambda f:int(f.rsplit('.',1)[1]))[1:]+[prefix]
    return files
def numbers(f):
    out=subprocess.run(['callgrind_annotate','--inclusive=yes',f],capture_output=True,text=True).stdout
    tot=int(re.search(r'^totals:\s+(\d+)',open(f).read(),re.M).group(1))
    def fn(pat):
        for line in out.splitlines():
            if pat in line: return int(line.split()[0].replace(',',''))
        return 0
    return tot,fn('Planner::planBgp'),fn('sparql::parseQuery')
def load(prefix,r):
    names=[row['query'] for row in csv.DictReader(open(prefix+'.csv').read().split('\n\n')[0].splitlines())]
    fs=parts(prefix); assert len(fs)==len(names)*(r+1),(len(fs),len(names))
    res={}
    for i,n in enumerate(names):
        runs=[numbers(f) for f in fs[i*(r+1)+1:(i+1)*(r+1)]]
        res[n]=tuple(statistics.median(x[k] for x in runs) for k in range(3))
    return res
r=int(sys.argv[1]); a=load(sys.argv[2],r); b=load(sys.argv[3],r)
import math
print(f"{'query':8} {'total_a':>10} {'total_b':>10} {'ratio':>6} {'plan_a':>10} {'plan_b':>10} {'parse_a':>8} {'parse_b':>8}")
lr=[]
for n in a:
    ta,pa,sa=a[n]; tb,pb,sb=b[n]
    lr.append(math.log(tb/ta))
    print(f"{n:8} {ta:10.0f} {tb:10.0f} {tb/ta:6.2f} {pa:10.0f} {pb:10.0f} {sa:8.0f} {sb:8.0f}")
print('geomean total ratio', round(math.exp(sum(lr)/len(lr)),3))
