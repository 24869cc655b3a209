#!/bin/bash
# 400,000 uniform gets on the LSM_TRIE store in DIR/db (20M x (16 + 100 B), factor 64, filled and settled
# beforehand with --settle_seconds=600), by JAR_A and JAR_B alternately, each in a fresh JVM (the store reopened).
# usage: reads-ab.sh DIR JAR_A JAR_B ROUNDS
cd "$1" || exit 1
for r in $(seq 1 $4); do
  for x in a b; do
    jar=$2; [ $x = b ] && jar=$3
    java -jar $jar --engine=bellows:LSM_TRIE/NONE --use_existing_db --benchmarks=readrandom --num=20000000 \
      --reads=400000 --key_size=16 --value_size=100 --scale_factor=64 --db=db --out=out-$x$r --progress=false > r-$x$r.log 2>&1
  done
done
echo DONE
