#!/bin/bash
# Alternating pairs (off, on), 7 times: ops/s, p50 and the JVM's CPU seconds per workload.
for i in 1 2 3 4 5 6 7; do
  for mode in off on; do
    extra=""
    if [ $mode = on ]; then extra="--record_trace=/tmp/run.trace"; fi
    java -jar engine-bench/target/bellows-bench.jar --benchmarks=fillrandom,readrandom --num=500000 --reads=500000 --progress=false $extra 2>&1 \
      | grep -E "^(fillrandom|readrandom) |^    process:" | head -4 | sed "s/^/$i $mode /"
    rm -f /tmp/run.trace
  done
done
