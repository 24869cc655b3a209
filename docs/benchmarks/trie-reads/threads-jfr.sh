#!/bin/bash
# One engine's fill (20M x (16 + 100 B), factor 64), settle, then 400,000 uniform gets, under JFR, with each
# thread's user and sys CPU sampled from /proc (../trie-packed/threads.py).
# usage: threads-jfr.sh SCRATCH BENCH_JAR ENGINE      (ENGINE: LSM_TRIE/NONE or LEVELED/NONE)
# then: python3 ../flsm-compaction-cpu/jfrtop.py SCRATCH/run.jfr --thread readrandom
HERE=$(cd "$(dirname "$0")" && pwd); cd "$1" || exit 1
rm -rf db
java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=run.jfr,settings=profile \
  -jar "$2" --engine=bellows:$3 --benchmarks=fillrandom,readrandom --num=20000000 --reads=400000 --key_size=16 \
  --value_size=100 --scale_factor=64 --settle_seconds=600 --db=db --out=out --progress=false > run.log 2>&1 &
sleep 2
JPID=$(pgrep -f "$2" -n)
python3 "$HERE/../trie-packed/threads.py" $JPID threads.txt &
wait
rm -rf db
echo DONE
