#!/usr/bin/env python3
"""Per GC log (-Xlog:gc): collections, their total pause, and the most heap left after a young collection
and after a concurrent cycle's cleanup (closest to the live set's high mark when the heap is capped).

usage: gcpeak.py LOG...
"""
import re
import sys

for path in sys.argv[1:]:
    text = open(path).read()
    young = [int(m.group(1)) for m in re.finditer(r"Pause Young.*?->(\d+)M\(\d+M\)", text)]
    cleanup = [int(m.group(1)) for m in re.finditer(r"Pause Cleanup.*?->(\d+)M\(\d+M\)", text)]
    full = len(re.findall(r"Pause Full", text))
    pause = sum(float(m.group(1)) for m in re.finditer(r"Pause .*? (\d+\.\d+)ms", text))
    print(f"{path:32} young {len(young):5}  full {full:3}  paused {pause / 1000:6.1f} s"
          f"  most after young {max(young, default=0):5} MiB  most after cleanup {max(cleanup, default=0):5} MiB")
