#!/usr/bin/env python3
"""jfrtop.py FILE.jfr [--last S] [--thread SUBSTR] [--event jdk.ExecutionSample] [--n 40] [--incl]
Self and inclusive method counts of sampled stacks."""
import json, subprocess, sys, collections, argparse, datetime
ap = argparse.ArgumentParser()
ap.add_argument('file'); ap.add_argument('--last', type=float); ap.add_argument('--thread')
ap.add_argument('--event', default='jdk.ExecutionSample'); ap.add_argument('--n', type=int, default=40)
ap.add_argument('--depth', type=int, default=64)
a = ap.parse_args()
out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', str(a.depth), '--events', a.event, a.file],
                     capture_output=True, text=True).stdout
ev = json.loads(out)['recording']['events']
def ts(e):
    return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')[:26] + '+00:00')
if a.last and ev:
    end = max(ts(e) for e in ev)
    ev = [e for e in ev if (end - ts(e)).total_seconds() <= a.last]
selfc = collections.Counter(); incl = collections.Counter(); n = 0
for e in ev:
    v = e['values']
    th = v.get('sampledThread') or v.get('eventThread') or {}
    name = (th or {}).get('javaName') or (th or {}).get('osName') or ''
    if a.thread and a.thread not in name:
        continue
    st = v.get('stackTrace')
    if not st: continue
    fr = st['frames']
    if not fr: continue
    n += 1
    def nm(f):
        m = f['method']; return m['type']['name'].split('.')[-1] + '.' + m['name']
    selfc[nm(fr[0])] += 1
    for x in set(nm(f) for f in fr):
        incl[x] += 1
print('samples', n)
print('--- self'); [print(f'{c:6d} {100*c/n:5.1f}% {k}') for k, c in selfc.most_common(a.n)]
print('--- inclusive'); [print(f'{c:6d} {100*c/n:5.1f}% {k}') for k, c in incl.most_common(a.n)]
