#!/usr/bin/env python3
"""Per GC log (-Xlog:gc): collections, and the most heap left after a collection (the live set's high mark).

usage: gcpeak.py LOG...
"""
import re
import sys

for path in sys.argv[1:]:
    after = [int(m.group(1)) for m in re.finditer(r"->(\d+)M\(\d+M\)", open(path).read())]
    print(f"{path:32} collections {len(after):5}  most heap after one {max(after, default=0):6} MiB")
