#!/bin/bash
# 100M-entry stores, filled once each, then read alternately (reopened, tables preloaded): rounds 1-3.
# usage: big.sh SCRATCH   (a directory holding bench.jar, a copy of engine-bench/target/bellows-bench.jar)
cd "$1"
for s in LEVELED FLSM LSM_TRIE; do
  rm -rf db-$s
  /usr/bin/time -f "%e s wall %U user %S sys" java -jar bench.jar --engine=bellows:$s/NONE --db=db-$s \
    --benchmarks=fillrandom --num=100000000 --key_size=16 --value_size=100 --settle_seconds=900 --progress=false > fill-$s.log 2>&1
  echo "$(date +%T) filled $s"
done
bash "$(dirname "$0")/reads.sh" . 0 1 2 3
