#!/bin/bash
# LEVELED the same way as prof.sh's first run (fill, settle, reads in one process, profiled), right after it.
cd $WORK
J="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"
A="--num=20000000 --reads=200000 --key_size=16 --value_size=100 --scale_factor=64 --progress=false"
rm -rf dbl
java $J -XX:StartFlightRecording=filename=prof-fill-leveled.jfr,settings=profile -jar bench2.jar --engine=bellows:LEVELED/NONE --db=$WORK/dbl --benchmarks=fillrandom,readrandom --settle_seconds=600 $A > prof-fill-leveled.log 2>&1
