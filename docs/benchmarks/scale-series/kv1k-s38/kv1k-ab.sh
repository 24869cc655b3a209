#!/bin/bash
# PebblesDB section 5.2's setting at factor 64: 6.25M x (16 + 1024 B), each scheme's store filled once and
# kept, then read reopened (tables preloaded) alternately, three rounds of 200,000 gets.
cd "${1:-.}"   # a scratch directory holding bench.jar
COMMON="--num=6250000 --key_size=16 --value_size=1024 --scale_factor=64"
for s in FLSM LEVELED; do
  rm -rf k-$s
  java -jar bench.jar --engine=bellows:$s/NONE --db=k-$s --benchmarks=fillrandom $COMMON --settle_seconds=900 \
    --progress=false > kfill-$s.log 2>&1
  echo "$(date +%T) filled $s: $(grep -E '^fillrandom' kfill-$s.log | head -1)"
done
for r in 1 2 3; do
  for s in LEVELED FLSM; do
    sync; sleep 10
    java -jar bench.jar --engine=bellows:$s/NONE --db=k-$s --use_existing_db --preload_tables=2 --benchmarks=readrandom \
      $COMMON --reads=200000 --seed=$r --progress=false > kread-$s-$r.log 2>&1
    echo "$(date +%T) read $s round $r: $(grep -E '^readrandom' kread-$s-$r.log | head -1)"
  done
done
echo DONE
