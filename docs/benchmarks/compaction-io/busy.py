#!/usr/bin/env python3
"""Classifies jstack samples of compaction threads (busy.sh) by what each is doing.

usage: busy.py FILE.stacks
"""
import sys
from collections import Counter

RULES = [  # (label, substring of a frame); the first rule that matches any frame of the sample wins
    ("idle (no compaction)", "ThreadPoolExecutor.getTask"),
    ("pwrite in the thread", "pwrite0"),
    ("pread in the thread", "pread0"),
    ("fsync in the thread", "force0"),
    ("creating files", "open0"),
    ("waiting for a chunk written behind", "DirectTableWriter.awaitInFlight"),
    ("waiting for a span read ahead", "Readahead.fromNext"),
    ("waiting for the table finisher", "TableFinisher"),
]

samples = open(sys.argv[1]).read().split("--\n")
counts = Counter()
for s in samples:
    if "bellows-compaction" not in s:
        continue
    frames = [l.strip() for l in s.splitlines() if l.strip().startswith("at ")]
    label = next((lab for lab, key in RULES if any(key in f for f in frames)), "CPU: merging and building tables")
    counts[label] += 1
total = sum(counts.values())
for label, n in counts.most_common():
    print(f"{n:6d} {100.0 * n / total:5.1f}%  {label}")
print(f"{total:6d} samples")
