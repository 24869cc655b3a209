#!/bin/bash
# FLSM fill A/B: jar of 3d43fb2 (bench.jar) against f100008 (bench-new.jar), alternated, JFR on the new one's first run
WORK=${WORK:-/tmp/flsm-cpu}; mkdir -p $WORK; cd $WORK   # bench.jar: the bench of 3d43fb2; bench-new.jar: of f100008
COMMON="--engine=bellows:FLSM/NONE --benchmarks=fillrandom --num=20000000 --key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=600 --progress=false"
for r in 1 2; do for j in bench bench-new; do
  rm -rf dbab; J=""
  if [ $r = 1 ] && [ $j = bench-new ]; then J="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=ab-new.jfr,settings=profile"; fi
  java $J -jar $j.jar --db=$WORK/dbab $COMMON > ab-$j-$r.log 2>&1
done; done
rm -rf dbab; echo DONE
