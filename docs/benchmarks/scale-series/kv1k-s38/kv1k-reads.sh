#!/bin/bash
# More alternated reads of kv1k-ab.sh's kept factor-64 stores: one round per ROUND argument, 100,000 gets each.
# usage: kv1k-reads.sh SCRATCH ROUND...
cd "$1" && shift
for r in "$@"; do
  for s in LEVELED FLSM; do
    sync; sleep 5
    java -jar bench.jar --engine=bellows:$s/NONE --db=k-$s --use_existing_db --preload_tables=2 --benchmarks=readrandom \
      --num=6250000 --key_size=16 --value_size=1024 --scale_factor=64 --reads=100000 --seed=$r --progress=false > kread-$s-$r.log 2>&1
    echo "$(date +%T) read $s round $r: $(grep -E '^readrandom' kread-$s-$r.log | head -1)"
  done
done
