#!/bin/bash
# usage: rab.sh DIR JAR_A JAR_B ROUNDS : one LSM_TRIE store (10M x (16+100 B), factor 64, filled and settled by
# JAR_B), then 200,000 uniform gets on it by JAR_A and JAR_B alternately, each in a fresh JVM
cd "$1" || exit 1
rm -rf db
java -jar $3 --engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom --num=10000000 --key_size=16 --value_size=100 \
  --scale_factor=64 --settle_seconds=300 --db=db --out=out-fill --progress=false > fill.log 2>&1
for r in $(seq 1 $4); do
  for x in a b; do
    jar=$2; [ $x = b ] && jar=$3
    java -jar $jar --engine=bellows:LSM_TRIE/NONE --use_existing_db --benchmarks=readrandom --num=10000000 \
      --reads=200000 --key_size=16 --value_size=100 --scale_factor=64 --db=db --out=out-$x$r --progress=false > r-$x$r.log 2>&1
  done
done
rm -rf db
echo DONE
