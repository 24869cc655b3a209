# usage: htparse.py DBDIR : composition of the HTables at rest
import os, sys, struct, glob, collections
def var(b, i):
    r = 0; s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i
tot = collections.Counter(); n = 0; bybk = collections.Counter(); cnt = collections.Counter()
for p in glob.glob(os.path.join(sys.argv[1], '*.sst')):
    with open(p, 'rb') as f:
        data = f.read()
    size = len(data)
    mo, ml = struct.unpack_from('<QI', data, size - 24)
    m = data[mo:mo+ml]
    i = 0
    vals = []
    for _ in range(12):
        v, i = var(m, i); vals.append(v)
    buckets, seed, entries, itemBytes, ovo, ovl, fo, fl, fcrc, co, cols, window = vals
    n += 1
    tot['header'] += 4096
    tot['buckets'] += 4096 * buckets
    tot['items'] += itemBytes
    tot['overflow'] += ovl
    tot['ownfilters'] += fl
    tot['pad'] += co - (fo + fl)
    tot['cluster'] += mo - co
    tot['meta+footer'] += ml + 24
    tot['file'] += size
    bybk[buckets] += 1
    cnt[cols // buckets] += 1
print('tables', n)
for k, v in tot.items():
    print(f"{k:12s} {v/2**20:10.1f} MiB  {v/tot['file']*100:6.1f}% of file")
print('bucket counts', sorted(bybk.items()))
print('cols/buckets', sorted(cnt.items()))
hist = collections.Counter()
for p in glob.glob(os.path.join(sys.argv[1], '*.sst')):
    with open(p, 'rb') as f:
        data = f.read()
    mo, ml = struct.unpack_from('<QI', data, len(data) - 24)
    m = data[mo:mo+ml]; i = 0; vals = []
    for _ in range(4):
        v, i = var(m, i); vals.append(v)
    fill = vals[3] / (vals[0] * 4082)
    hist[(vals[0], int(fill * 20) * 5)] += 1
print('fill histogram (buckets, fill% bin): count')
for k in sorted(hist): print(k, hist[k])
