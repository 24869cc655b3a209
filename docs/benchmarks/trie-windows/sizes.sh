#!/bin/bash
# LSM_TRIE's table size at full size (factor 1): one compare run of LEVELED and LSM_TRIE with 2048-bucket
# (8 MiB) tables, then LSM_TRIE with 8192 (32 MiB, the paper's), NUM x (16 + 100 B), settle, 300,000 gets.
# usage: sizes.sh SCRATCH BENCH_JAR NUM
cd "$1" || exit 1
JAR=$2 NUM=$3
COMMON="--benchmarks=fillrandom,readrandom --num=$NUM --reads=300000 --key_size=16 --value_size=100 \
--scale_factor=1 --settle_seconds=900 --progress=false"
rm -rf db-run
java -jar "$JAR" --engines=bellows:LEVELED/NONE,bellows:LSM_TRIE/NONE --baseline=bellows:LEVELED/NONE \
  --trie_table_buckets=2048 $COMMON --db=db-run --out=t2048 > t2048.log 2>&1
rm -rf db-run
java -jar "$JAR" --engines=bellows:LSM_TRIE/NONE --trie_table_buckets=8192 $COMMON --db=db-run --out=t8192 \
  > t8192.log 2>&1
rm -rf db-run
echo DONE
