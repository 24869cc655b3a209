#!/bin/bash
# same-process pair, then reopened alternated reads; all under JFR
REPO=$(pwd); WORK=${WORK:-/tmp/flsm-cpu}; mkdir -p $WORK; cd $WORK; ln -sf $REPO/engine-bench/target/bellows-bench.jar bench.jar
J="java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"
COMMON="--benchmarks=fillrandom,readrandom --num=20000000 --reads=300000 --key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=600 --progress=false"
for s in FLSM LEVELED; do
  rm -rf db-$s
  $J -XX:StartFlightRecording=filename=fill-$s.jfr,settings=profile -jar bench.jar --engine=bellows:$s/NONE --db=$WORK/db-$s $COMMON > fill-$s.log 2>&1
done
for r in 1 2; do for s in FLSM LEVELED; do
  $J -XX:StartFlightRecording=filename=read-$s-$r.jfr,settings=profile -jar bench.jar --engine=bellows:$s/NONE --db=$WORK/db-$s --use_existing_db --benchmarks=readrandom --num=20000000 --reads=600000 --key_size=16 --value_size=100 --scale_factor=64 --preload_tables=4 --progress=false > read-$s-$r.log 2>&1
done; done
echo DONE
