#!/bin/bash
# usage: ab.sh DIR JAR_A JAR_B ROUNDS : LSM_TRIE alone, 10M x (16+100 B), factor 64, fill + settle, alternated
cd "$1" || exit 1
for r in $(seq 1 $4); do
  for x in a b; do
    jar=$2; [ $x = b ] && jar=$3
    rm -rf db
    java -jar $jar --engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom --num=10000000 --key_size=16 --value_size=100 \
      --scale_factor=64 --settle_seconds=300 --db=db --out=out-$x$r --progress=false > $x$r.log 2>&1
  done
done
rm -rf db
echo DONE
