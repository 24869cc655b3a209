#!/bin/bash
WORK=${WORK:-/tmp/flsm-big}; mkdir -p $WORK; cd $WORK   # bench-new3.jar: the bench of e3abbf1
rm -rf dbbig
java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=bigflsm.jfr,settings=profile,maxsize=1g \
  -jar bench-new3.jar --engine=bellows:FLSM/NONE --db=$WORK/dbbig --benchmarks=fillrandom,readrandom --num=100000000 --reads=600000 \
  --key_size=16 --value_size=100 --settle_seconds=600 --progress=false > bigflsm.log 2>&1
echo DONE
