#!/bin/bash
set -e
cd /tmp/tracecost
rm -f app.trace
/usr/bin/time -f "record: %e s" java -jar bellows-bench.jar --benchmarks=fillrandom,ycsba --num=200000 --operations=200000 \
  --threads=2 --memstore_size=4M --progress=false --record_trace=/tmp/app.trace > record.out 2>&1
ls -la app.trace >> record.out
/usr/bin/time -f "replay compare: %e s" java -jar bellows-bench.jar --benchmarks=replay --trace=/tmp/app.trace \
  --engines=bellows:LEVELED/NONE,bellows:LEVELED/BASIC/OFF_HEAP,bellows:FLSM/NONE,bellows:LSM_TRIE/NONE,bellows:PTIER/NONE,bellows:TRIAD/NONE,rocksdb \
  --memstore_size=4M --progress=false --out=/tmp/replay-out > replay.out 2>&1
