#!/bin/bash
# FLSM fill A/B: jar of 3d43fb2 (bench.jar) against e3abbf1 (bench-new3.jar), alternated
WORK=${WORK:-/tmp/flsm-cpu}; mkdir -p $WORK; cd $WORK   # bench.jar: the bench of 3d43fb2; bench-new3.jar: of e3abbf1
COMMON="--engine=bellows:FLSM/NONE --benchmarks=fillrandom --num=20000000 --key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=600 --progress=false"
for r in 1 2 3; do for j in bench bench-new3; do
  rm -rf dbab
  java -jar $j.jar --db=$WORK/dbab $COMMON > ab2-$j-$r.log 2>&1
done; done
rm -rf dbab; echo DONE
