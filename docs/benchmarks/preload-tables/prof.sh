#!/bin/bash
# FLSM gets' CPU: in the process that filled the store against a reopened (preloaded) one, both profiled.
cd $WORK
J="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"
A="--num=20000000 --reads=200000 --key_size=16 --value_size=100 --scale_factor=64 --progress=false"
rm -rf dbp
java $J -XX:StartFlightRecording=filename=prof-fill.jfr,settings=profile -jar bench2.jar --engine=bellows:FLSM/NONE --db=$WORK/dbp --benchmarks=fillrandom,readrandom --settle_seconds=600 $A > prof-fill.log 2>&1
java $J -XX:StartFlightRecording=filename=prof-reopen.jfr,settings=profile -jar bench2.jar --engine=bellows:FLSM/NONE --db=$WORK/dbp --use_existing_db --benchmarks=readrandom --preload_tables=4 $A > prof-reopen.log 2>&1
