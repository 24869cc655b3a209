#!/bin/bash
# Where LSM_TRIE's table bytes go: a 3M fill at factor 64 with 32 MiB (8192) and 8 MiB (2048) HTables,
# then htbytes.py over the store at rest. Run from the repository root after building the bench.
REPO=$(pwd); WORK=${WORK:-/tmp/trie-bytes}; mkdir -p $WORK
for b in 8192 2048; do
  rm -rf $WORK/dbt-$b
  java -jar $REPO/engine-bench/target/bellows-bench.jar --engine=bellows:LSM_TRIE/NONE --db=$WORK/dbt-$b \
      --benchmarks=fillrandom --num=3000000 --key_size=16 --value_size=100 --scale_factor=64 \
      --trie_table_buckets=$b --settle_seconds=300 --progress=false > $WORK/trie-$b.log 2>&1
  python3 $REPO/docs/benchmarks/htable-bytes/htbytes.py $WORK/dbt-$b > $WORK/trie-$b.bytes 2>&1
done
