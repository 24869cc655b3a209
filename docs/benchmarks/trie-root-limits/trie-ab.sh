#!/bin/bash
# LSM_TRIE's root limits in tables (bench.jar, e3abbf1) against limits in flushes (bench-new.jar, 633882c):
# fills of 20M x (16 + 100 B) at factor 64 with the default 2048-bucket tables, alternated, two rounds,
# then LEVELED once for the ratio. usage: trie-ab.sh SCRATCH
cd "$1"   # SCRATCH holds bench.jar (e3abbf1) and bench-new.jar (633882c)
COMMON="--benchmarks=fillrandom --num=20000000 --key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=900 --progress=false"
for r in 1 2; do
  for jar in bench bench-new; do
    java -jar $jar.jar --engine=bellows:LSM_TRIE/NONE $COMMON > trie-$jar-$r.log 2>&1
    echo "$(date +%T) $jar round $r: $(grep -E '^fillrandom' trie-$jar-$r.log | head -1)"
  done
done
java -jar bench-new.jar --engine=bellows:LEVELED/NONE $COMMON > trie-leveled.log 2>&1
echo "$(date +%T) LEVELED: $(grep -E '^fillrandom' trie-leveled.log | head -1)"
echo DONE
