#!/bin/bash
# 100M-entry stores, filled once each, then read alternately (reopened, tables preloaded).
cd "${1:-.}"  # a scratch directory holding bench.jar (a copy of engine-bench/target/bellows-bench.jar)
for s in LEVELED FLSM LSM_TRIE; do
  rm -rf db-$s
  /usr/bin/time -f "%e s wall %U user %S sys" java -jar bench.jar --engine=bellows:$s/NONE --db=db-$s \
    --benchmarks=fillrandom --num=100000000 --key_size=16 --value_size=100 --settle_seconds=900 --progress=false > fill-$s.log 2>&1
  echo "$(date +%T) filled $s"
done
for r in 1 2 3; do
  for s in LEVELED FLSM LSM_TRIE; do
    sync; sleep 20
    java -jar bench.jar --engine=bellows:$s/NONE --db=db-$s --use_existing_db --preload_tables=2 \
      --benchmarks=readrandom --num=100000000 --reads=300000 --key_size=16 --value_size=100 --seed=$r --progress=false > read-$s-$r.log 2>&1
    echo "$(date +%T) read $s round $r: $(grep -E '^readrandom' read-$s-$r.log | head -1)"
  done
done
echo DONE
