#!/bin/bash
# LSM_TRIE at factor 1 (20M x (16 + 100 B), 32 MiB tables), before (a: packed items, no write-through) and after
# (b: clusters below the root written through the filter cache): fill, settle, 300,000 gets each.
# usage: f1ab.sh SCRATCH   (bench-a.jar and bench-b.jar in SCRATCH)
cd "$1" || exit 1
for v in a b; do
  rm -rf db-run
  java -jar bench-$v.jar --engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom,readrandom --num=20000000 \
    --reads=300000 --key_size=16 --value_size=100 --scale_factor=1 --settle_seconds=900 --db=db-run --out=out-$v \
    --progress=false > f1-$v.log 2>&1
done
rm -rf db-run
echo DONE
