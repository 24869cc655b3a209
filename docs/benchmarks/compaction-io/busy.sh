#!/bin/bash
# Where a fill's compaction thread spends its time: its stack every 0.5 s (jstack; JFR samples one native
# thread per 20 ms and undercounts a thread that waits in pread/pwrite), classified by busy.py.
# usage: busy.sh SCRATCH JAR ENGINE NUM FACTOR    e.g. busy.sh /tmp/s bench-b.jar LEVELED/NONE 20000000 64
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$1" || exit 1
JAR=$2 ENGINE=$3 NUM=$4 FACTOR=$5
OUT=busy-$(echo "$ENGINE" | tr '/' '-')-${JAR%.jar}
rm -rf db-busy
java -jar "$JAR" --engine=bellows:$ENGINE --benchmarks=fillrandom --num=$NUM --key_size=16 --value_size=100 \
    --scale_factor=$FACTOR --settle_seconds=0 --progress=false --db=db-busy > $OUT.log 2>&1 &
sleep 15
PID=$(pgrep -f "$JAR --engine=bellows:$ENGINE" | head -1)
: > $OUT.stacks
while kill -0 "$PID" 2>/dev/null; do
  jstack "$PID" 2>/dev/null | awk '/^"bellows-compaction/{p=1} p&&/^$/{p=0; print "--"} p' >> $OUT.stacks
  sleep 0.5
done
rm -rf db-busy
python3 "$HERE/busy.py" $OUT.stacks
