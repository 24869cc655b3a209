import re,sys,statistics as st
# Usage: summarize.py NAME NUM (e.g. 5m 5000000): medians of the rounds' logs in this directory.
import os
prefix=sys.argv[1]
num=int(sys.argv[2])
here=os.path.dirname(os.path.abspath(__file__))
rows={}
for r in (1,2,3):
    for kind in ('static','cmp'):
        try: txt=open(f'{here}/{prefix}-round{r}-{kind}.log').read()
        except: continue
        if kind=='static':
            blocks={'static':txt}
        else:
            blocks={}
            for eng,tag in (('rocksdb','[rocksdb] '),('dynamic','[bellows:LEVELED/NONE] ')):
                blocks[eng]='\n'.join(l[len(tag):] for l in txt.splitlines() if l.startswith(tag))
        for eng,b in blocks.items():
            m=re.search(r'^fillrandom\s+\d+\s+([\d.]+)\s+(\d+)',b,re.M)
            s=re.search(r'settled: compaction idle after ([\d.]+) s',b)
            rr=re.search(r'^readrandom\s+\d+\s+([\d.]+)\s+(\d+)',b,re.M)
            if not (m and s and rr): continue
            engs=re.findall(r'engine: write-amp ([\d.]+), total write-amp [\d.]+, space-amp ([\d.]+), tables/get ([\d.]+)',b)
            lev=re.findall(r'levels: (.*)',b)
            fill=float(m.group(1)); settle=float(s.group(1))
            rows.setdefault(eng,[]).append(dict(r=r,fill=num/fill,fs=num/(fill+settle),settle=settle,samp_fill=float(engs[0][1]),
                samp=float(engs[1][1]),wamp=float(engs[1][0]),tpg=float(engs[2][2]),read=int(rr.group(2)),lev=lev[1]))
for eng,L in rows.items():
    print(eng, len(L),'rounds')
    for x in L: print('  ',x)
    for k in ('fill','fs','settle','samp_fill','samp','wamp','tpg','read'):
        print('   median',k,round(st.median([x[k] for x in L]),2))
# ratios per round vs rocksdb
for eng in ('dynamic','static'):
    for k in ('fill','fs','read'):
        rs=[]
        for x in rows.get(eng,[]):
            y=[z for z in rows.get('rocksdb',[]) if z['r']==x['r']]
            if y: rs.append(round(x[k]/y[0][k],2))
        print(eng,k,'x rocksdb per round',rs,'median',st.median(rs) if rs else None)
