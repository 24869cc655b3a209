#!/bin/bash
# An LSM_TRIE fill at factor 64 under JFR (the samples of 2026-12-03's packed-items change): NUM x (16 + 100 B),
# then up to 120 s of settling. Read the recording with ../flsm-compaction-cpu/jfrthreads.py and
# ../flsm-compaction-cpu/jfrtop.py SCRATCH/trie.jfr --thread compaction.
# usage: prof.sh SCRATCH BENCH_JAR NUM
cd "$1" || exit 1
rm -rf db
java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=trie.jfr,settings=profile \
  -jar "$2" --engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom --num="$3" --key_size=16 --value_size=100 \
  --scale_factor=64 --settle_seconds=120 --db=db --out=out --progress=false > fill.log 2>&1
rm -rf db
echo DONE
