#!/bin/bash
# Where LSM_TRIE's compaction thread spends a fill: its stack every 0.5 s (jstack), counted by top frame.
# JFR samples one native thread per 20 ms, which undercounts a thread that is mostly in pread/pwrite.
# usage: busy.sh SCRATCH   (SCRATCH holds bench.jar)
cd "$1" || exit 1
rm -rf db-busy
java -jar bench.jar --engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom --num=5000000 --key_size=16 \
    --value_size=100 --scale_factor=64 --settle_seconds=0 --progress=false --db=db-busy > busy.log 2>&1 &
sleep 20
PID=$(pgrep -f 'bench.jar --engine=bellows:LSM_TRIE' | head -1)
: > stacks.txt
while kill -0 "$PID" 2>/dev/null; do
  jstack "$PID" 2>/dev/null | awk '/^"bellows-compaction/{p=1} p&&/^$/{p=0; print "--"} p' >> stacks.txt
  sleep 0.5
done
# one line per sample: the first frame below the thread's state line
awk '/^"bellows-compaction/{getline; getline; print $2}' stacks.txt | sort | uniq -c | sort -rn | head -20
