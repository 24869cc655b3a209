#!/bin/bash
# Reopened 100M stores read alternately, each read preceded by a raw O_DIRECT probe of the same store's files.
cd "${1:-.}"  # a scratch directory holding bench.jar (a copy of engine-bench/target/bellows-bench.jar)
for r in 4 5; do
  for s in LEVELED FLSM LSM_TRIE; do
    sync; sleep 10
    python3 devlat.py 20000 1 db-$s | sed "s/^round 1/probe r$r/"
    java -jar bench.jar --engine=bellows:$s/NONE --db=db-$s --use_existing_db --preload_tables=2 \
      --benchmarks=readrandom --num=100000000 --reads=300000 --key_size=16 --value_size=100 --seed=$r --progress=false > read-$s-$r.log 2>&1
    echo "$(date +%T) read $s round $r: $(grep -E '^readrandom' read-$s-$r.log | head -1)"
  done
done
echo DONE
