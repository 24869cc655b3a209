#!/bin/bash
# LEVELED against LSM_TRIE at the deepest configuration (20M x (16 + 100 B), factor 64): one compare
# run, fill, settle (up to 600 s), 200,000 gets.
# usage: f64.sh SCRATCH BENCH_JAR
cd "$1" || exit 1
rm -rf db-run
java -jar "$2" --engines=bellows:LEVELED/NONE,bellows:LSM_TRIE/NONE --baseline=bellows:LEVELED/NONE \
  --benchmarks=fillrandom,readrandom --num=20000000 --reads=200000 --key_size=16 --value_size=100 \
  --scale_factor=64 --settle_seconds=600 --db=db-run --out=OUT --progress=false > run.log 2>&1
rm -rf db-run
echo DONE
