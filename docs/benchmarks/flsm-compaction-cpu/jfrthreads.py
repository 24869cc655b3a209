#!/usr/bin/env python3
import json, subprocess, sys, collections
f = sys.argv[1]
out = subprocess.run(['jfr', 'print', '--json', '--stack-depth', '1', '--events', 'jdk.ExecutionSample', f], capture_output=True, text=True).stdout
ev = json.loads(out)['recording']['events']
c = collections.Counter()
import re
for e in ev:
    th = e['values'].get('sampledThread') or {}
    name = th.get('javaName') or th.get('osName') or '?'
    c[re.sub(r'\d+', 'N', name)] += 1
n = sum(c.values()); print('samples', n)
for k, v in c.most_common(20): print(f'{v:7d} {100*v/n:5.1f}% {k}')
