#!/bin/bash
# JFR of FLSM and LEVELED fills at factor 8 with 1 KiB values: where each compaction thread waits.
cd "$1"   # SCRATCH holds bench.jar (e3abbf1)
for s in FLSM LEVELED; do
  rm -rf p-$s
  java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=prof-$s.jfr,settings=profile \
    -jar bench.jar --engine=bellows:$s/NONE --db=p-$s --benchmarks=fillrandom --num=6250000 --key_size=16 --value_size=1024 \
    --scale_factor=8 --settle_seconds=900 --progress=false > prof-$s.log 2>&1
  echo "$(date +%T) $s: $(grep -E '^fillrandom' prof-$s.log | head -1)"
  rm -rf p-$s
done
echo DONE
