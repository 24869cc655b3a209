#!/bin/bash
# PebblesDB section 5.2's setting: 16-byte keys, 1024-byte values, random writes then random reads.
# One compare run per scale (factor 8: 6.25M entries model the paper's 50M; factor 64: deeper).
cd "${1:-.}"   # a scratch directory holding bench.jar

for cfg in "8 6250000" "64 6250000"; do
  set -- $cfg
  out=kv1k-f$1-n$2
  /usr/bin/time -f "%e s wall" java -jar bench.jar --engines=bellows:LEVELED/NONE,bellows:FLSM/NONE --baseline=bellows:LEVELED/NONE \
    --benchmarks=fillrandom,readrandom --num=$2 --reads=200000 --key_size=16 --value_size=1024 \
    --scale_factor=$1 --settle_seconds=900 --out=$out --progress=false > $out.log 2>&1
  echo "$(date +%T) done $out"
done
echo DONE
