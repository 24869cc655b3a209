#!/usr/bin/env python3
"""Tables of docs/benchmarks.md's TRIAD long form from run.sh's OUTDIR: per profile and engine, the
readrandomwriterandom figures and the byte counters since the store was created (taken at the end of
the workload, before its settle)."""
import json
import os
import sys

out = sys.argv[1]
MB = 1e6


def rows(run_dir):
    d = json.load(open(os.path.join(run_dir, 'results.json')))
    for r in d['runs']:
        w = [x for x in r['workloads'] if x['workload'] == 'readrandomwriterandom']
        if not w or w[0]['status'] != 'ran':
            continue
        w = w[0]
        s = w['stats']
        written = s['flush_bytes'] + s['compaction_bytes_written']
        yield (r['engine'], w['ops_per_sec'], w['p99_us'], s['flush_bytes'] / MB,
               s['compaction_bytes_written'] / MB, written / s['user_bytes'], written / max(1, s['flush_bytes']),
               s['tables_probed'] / max(1, s['gets']), s['stalls'])


print('| profile | engine | ops/s | x LEVELED | p99 us | flush MB | compaction MB | wa-user | x LEVELED | w-amp | tables/get | stalls |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for ws in ('ws1', 'ws2', 'ws3'):
    for reads in ('10', '50'):
        d = os.path.join(out, f'{ws}-r{reads}')
        if not os.path.exists(os.path.join(d, 'results.json')):
            continue
        rs = list(rows(d))
        base = [r for r in rs if r[0].startswith('bellows:LEVELED')]
        base = base[0] if base else None
        for r in rs:
            xo = f'{r[1] / base[1]:.2f}x' if base else '-'
            xw = f'{r[5] / base[5]:.2f}x' if base else '-'
            print(f'| {ws.upper()} {reads}% reads | {r[0]} | {r[1]:,.0f} | {xo} | {r[2]:.1f} | {r[3]:.1f} | {r[4]:.1f} | '
                  f'{r[5]:.2f} | {xw} | {r[6]:.2f} | {r[7]:.2f} | {r[8]} |')
print()
print('| profile | technique alone | ops/s | flush MB | compaction MB | wa-user | w-amp | tables/get |')
print('| --- | --- | --- | --- | --- | --- | --- | --- |')
for ws in ('ws1', 'ws2', 'ws3'):
    for only in ('mem', 'disk', 'log'):
        d = os.path.join(out, f'{ws}-{only}-only')
        if not os.path.exists(os.path.join(d, 'results.json')):
            continue
        for r in rows(d):
            print(f'| {ws.upper()} | {only.upper()} | {r[1]:,.0f} | {r[3]:.1f} | {r[4]:.1f} | {r[5]:.2f} | {r[6]:.2f} | {r[7]:.2f} |')
