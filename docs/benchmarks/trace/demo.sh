#!/bin/bash
# Run from the repository root after `mvn -B -q package -DskipTests`: records fillrandom + ycsba with tracing on,
# then replays the trace on seven configurations (output in /tmp/record.out and /tmp/replay.out).
set -e
rm -f /tmp/app.trace
/usr/bin/time -f "record: %e s" java -jar engine-bench/target/bellows-bench.jar --benchmarks=fillrandom,ycsba --num=200000 \
  --operations=200000 --threads=2 --memstore_size=4M --progress=false --record_trace=/tmp/app.trace > /tmp/record.out 2>&1
ls -la /tmp/app.trace >> /tmp/record.out
/usr/bin/time -f "replay compare: %e s" java -jar engine-bench/target/bellows-bench.jar --benchmarks=replay --trace=/tmp/app.trace \
  --engines=bellows:LEVELED/NONE,bellows:LEVELED/BASIC/OFF_HEAP,bellows:FLSM/NONE,bellows:LSM_TRIE/NONE,bellows:PTIER/NONE,bellows:TRIAD/NONE,rocksdb \
  --memstore_size=4M --progress=false --out=/tmp/replay-out > /tmp/replay.out 2>&1
