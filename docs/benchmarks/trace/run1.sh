#!/bin/bash
# Alternating pairs: off then on, 5 times.
for i in 1 2 3 4 5; do
  for mode in off on; do
    extra=""
    if [ $mode = on ]; then extra="--record_trace=/tmp/run.trace"; fi
    java -jar engine-bench/target/bellows-bench.jar --benchmarks=fillrandom,readrandom --num=1000000 --reads=1000000 --progress=false $extra 2>&1 \
      | grep -E "^(fillrandom|readrandom) " | head -2 | sed "s/^/$i $mode /"
    rm -f /tmp/run.trace
  done
done
