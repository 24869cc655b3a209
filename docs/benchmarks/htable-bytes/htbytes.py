#!/usr/bin/env python3
"""htbytes.py DBDIR: where an LSM_TRIE store's table bytes go (docs/formats/htable.md)."""
import os, struct, sys, collections
def varint(b, p):
    r = s = 0
    while True:
        x = b[p]; p += 1; r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, p
tot = collections.Counter(); sizes = collections.Counter(); n = 0
d = sys.argv[1]
for f in os.listdir(d):
    if not f.endswith('.sst'): continue
    path = os.path.join(d, f); size = os.path.getsize(path)
    with open(path, 'rb') as fh:
        fh.seek(size - 24); foot = fh.read(24)
        metaAt, mlen = struct.unpack_from('<QI', foot, 0)
        fh.seek(metaAt); m = fh.read(mlen)
    p = 0; v = []
    for _ in range(11): x, p = varint(m, p); v.append(x)
    buckets, seed, entries, itemBytes, ovOff, ovLen, fOff, fLen, fCrc, cOff, cCols = v
    runs, p = varint(m, p); pages = 0
    for _ in range(runs):
        _, p = varint(m, p); pg, p = varint(m, p); pages += pg
    n += 1; sizes[buckets] += 1
    tot['file'] += size; tot['entries'] += entries; tot['items'] += itemBytes
    tot['header'] += 4096; tot['buckets'] += 4096 * buckets; tot['overflow'] += ovLen
    tot['ownFilters'] += fLen; tot['cluster'] += 4096 * pages; tot['meta'] += mlen + 24
    pad = size - (4096 + 4096 * buckets + ovLen + fLen + 4096 * pages + mlen + 24)
    tot['padding'] += pad
    tot['clusterCols_x_buckets'] += cCols // max(1, buckets)
print('tables', n, 'bucket counts', dict(sorted(sizes.items())))
F = tot['file']
for k in ['file', 'header', 'buckets', 'items', 'overflow', 'ownFilters', 'padding', 'cluster', 'meta']:
    print(f'{k:12s} {tot[k]/2**20:10.1f} MiB {100*tot[k]/F:6.1f}%')
print('entries', tot['entries'], 'file bytes/entry', F / max(1, tot['entries']), 'item bytes/entry', tot['items'] / max(1, tot['entries']))
print('bucket fill (items-overflow)/buckets', (tot['items'] - tot['overflow']) / tot['buckets'])
