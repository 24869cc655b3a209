import sys
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
import json,re,glob,statistics
units={}
def jmh(side):
    res={}
    for f in sorted(glob.glob(f'{OUT}/jmh-{side}-*.json')):
        for r in json.load(open(f)):
            key=r['benchmark'].split('.')[-2]+'.'+r['benchmark'].split('.')[-1]+'('+','.join(f'{k}={v}' for k,v in sorted(r.get('params',{}).items()) if k in ('policy','layout','sources'))+')'
            res.setdefault(key,[]).append(r['primaryMetric']['score']); units[key]=r['primaryMetric']['scoreUnit']
    return res
o=jmh('old'); n=jmh('new')
print('| benchmark | unit | old (runs) | new (runs) | new/old (medians) |')
print('| --- | --- | --- | --- | --- |')
for k in sorted(o):
    mo=statistics.median(o[k]); mn=statistics.median(n[k])
    print(f"| {k} | {units[k]} | {mo:.3g} ({', '.join(f'{x:.3g}' for x in o[k])}) | {mn:.3g} ({', '.join(f'{x:.3g}' for x in n[k])}) | {mn/mo:.2f} |")
def bench(side):
    res={}
    for f in sorted(glob.glob(f'{OUT}/bench-{side}-*.log')):
        txt=open(f).read()
        summ=txt[txt.index('Summary'):]
        for line in summ.splitlines()[3:]:
            p=line.split()
            if len(p)>4: res.setdefault(p[0],[]).append(float(p[3]))
    return res
o=bench('old'); n=bench('new')
print()
print('| workload | old ops/s (runs) | new ops/s (runs) | new/old (medians) |')
print('| --- | --- | --- | --- |')
for k in o:
    mo=statistics.median(o[k]); mn=statistics.median(n[k])
    print(f"| {k} | {mo:.0f} ({', '.join(f'{x:.0f}' for x in o[k])}) | {mn:.0f} ({', '.join(f'{x:.0f}' for x in n[k])}) | {mn/mo:.3f} |")
