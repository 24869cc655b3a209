# usage: threads.py PID OUT : samples per-thread utime/stime (ticks) until the process ends; keeps last value per tid
import os, sys, time, collections
pid, out = sys.argv[1], sys.argv[2]
last = {}
while os.path.exists(f"/proc/{pid}"):
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                s = open(f"/proc/{pid}/task/{tid}/stat").read()
                name = s[s.index('(')+1:s.rindex(')')]
                f = s[s.rindex(')')+2:].split()
                last[tid] = (name, int(f[11]), int(f[12]))
            except Exception:
                pass
    except Exception:
        pass
    time.sleep(1)
agg = collections.defaultdict(lambda: [0, 0])
import re
for tid, (name, u, st) in last.items():
    k = re.sub(r'\d+$', 'N', name)
    agg[k][0] += u; agg[k][1] += st
hz = os.sysconf('SC_CLK_TCK')
with open(out, 'w') as o:
    tu = sum(v[0] for v in agg.values()); ts = sum(v[1] for v in agg.values())
    o.write(f"total user {tu/hz:.1f} s sys {ts/hz:.1f} s\n")
    for k, (u, st) in sorted(agg.items(), key=lambda kv: -(kv[1][0]+kv[1][1])):
        o.write(f"{k:30s} user {u/hz:8.1f} s  sys {st/hz:8.1f} s\n")
