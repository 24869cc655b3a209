#!/bin/bash
# Alternated A/B of two bench jars on LSM_TRIE fills of 5M x (16 + 100 B) at factor 64, then 50,000 gets.
# usage: ab.sh SCRATCH ROUNDS [extra flags, e.g. --background_threads=3]
# SCRATCH holds bench-a.jar (before) and bench-b.jar (after); each round runs a then b.
cd "$1" || exit 1
ROUNDS=$2
shift 2
COMMON="--engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom,readrandom --num=5000000 --reads=50000 \
--key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=300 --progress=false $*"
for r in $(seq 1 "$ROUNDS"); do
  for jar in a b; do
    rm -rf db-$jar
    java -jar bench-$jar.jar $COMMON --db=db-$jar > $jar-$r.log 2>&1
    echo "$(date +%T) $jar round $r: $(grep -E '^fillrandom' $jar-$r.log | head -1)"
    grep -E 'stall|write-amp' $jar-$r.log | head -4
  done
done
rm -rf db-a db-b
echo DONE
