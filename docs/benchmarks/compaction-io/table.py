#!/usr/bin/env python3
"""One line per ab.sh log, and per engine and round the ratio of b (overlapped I/O) to a (synchronous).

usage: table.py NUM SCRATCH      (uses ../scale-series/summarize.py's parser)
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scale-series"))
from summarize import parse  # noqa: E402

num, d = int(sys.argv[1]), sys.argv[2]
runs = {}
for path in sorted(glob.glob(os.path.join(d, "*-[ab]-*.log"))):
    m = re.match(r"(.*)-([ab])-(\d+)\.log$", os.path.basename(path))
    r = parse(path, num)
    if r in (None, "absent"):
        print(os.path.basename(path), "incomplete")
        continue
    runs[(m.group(1), m.group(3), m.group(2))] = r
    print(f"{os.path.basename(path):28} fill {r['fill']:>9,.0f}  stall {r['stall_s']:6.1f} s  settle {r['settle_s']:5.1f} s"
          f"  fill+settle {r['fill_settle']:>9,.0f}  w-amp {r['wa']:5.2f}  read {r['read']:>7,.0f}")
for (e, rnd, jar), r in sorted(runs.items()):
    if jar == "b" and (e, rnd, "a") in runs:
        a = runs[(e, rnd, "a")]
        print(f"{e} round {rnd}: fill {r['fill'] / a['fill']:.2f}x, fill+settle {r['fill_settle'] / a['fill_settle']:.2f}x,"
              f" read {r['read'] / a['read']:.2f}x")
