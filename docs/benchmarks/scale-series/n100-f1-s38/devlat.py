#!/usr/bin/env python3
"""devlat.py N ROUNDS DIR... : O_DIRECT 4 KiB random reads over each store's table files (a file chosen
with probability by its size, an aligned offset within it), the stores alternated within each round;
prints per store and round the median, p99 and mean latency in microseconds."""
import bisect, mmap, os, random, sys, time
n, rounds, dirs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
buf = mmap.mmap(-1, 4096)  # page-aligned, as O_DIRECT needs
stores = {}
for d in dirs:
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.sst'))
    sizes = [os.path.getsize(f) for f in files]
    cum, t = [], 0
    for s in sizes:
        t += s
        cum.append(t)
    stores[d] = ([os.open(f, os.O_RDONLY | os.O_DIRECT) for f in files], sizes, cum, t)
rng = random.Random(1)
for r in range(1, rounds + 1):
    for d in dirs:
        fds, sizes, cum, total = stores[d]
        lat = []
        for _ in range(n):
            i = bisect.bisect_right(cum, rng.randrange(total))
            off = rng.randrange(max(1, sizes[i] // 4096)) * 4096
            t0 = time.perf_counter_ns()
            os.preadv(fds[i], [buf], off)
            lat.append((time.perf_counter_ns() - t0) / 1000)
        lat.sort()
        print(f"round {r} {os.path.basename(d):12s} files {len(fds):5d} p50 {lat[n // 2]:7.1f} us"
              f" p99 {lat[int(n * 0.99)]:7.1f} us mean {sum(lat) / n:7.1f} us", flush=True)
