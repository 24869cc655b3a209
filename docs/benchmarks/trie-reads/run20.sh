#!/bin/bash
# One pair at the deepest configuration: LSM_TRIE fills of 20M x (16 + 100 B) at factor 64 with
# the default 2048-bucket tables, then 200,000 gets; bench-b.jar (after) first, then bench-a.jar (before).
# usage: run20.sh SCRATCH
cd "$1" || exit 1
COMMON="--engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom,readrandom --num=20000000 --reads=200000 \
--key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=600 --progress=false"
for jar in b a; do
  rm -rf db20-$jar
  java -jar bench-$jar.jar $COMMON --db=db20-$jar > n20-$jar.log 2>&1
  echo "$(date +%T) $jar: $(grep -E '^(fillrandom|readrandom)' n20-$jar.log | tr '\n' ' ')"
done
rm -rf db20-a db20-b
echo DONE
