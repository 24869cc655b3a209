#!/usr/bin/env bash
# Old (before engine core v2, d5ec074) vs new jars, alternated, on an otherwise idle machine.
set -u
cd /work/benchcmp
for round in 1 2; do
  for side in old new; do
    if [ $side = old ]; then J=/work/baseline-jars; else J=/work/newjars; fi
    java -jar $J/benchmarks.jar 'MemStoreBenchmark|MergingIteratorBenchmark|BlockDecodeBenchmark' -f 1 \
      -rf json -rff jmh-$side-$round.json > jmh-$side-$round.log 2>&1
    D=$(mktemp -d)
    ( cd $D && java -jar $J/bellows-bench.jar > /work/benchcmp/bench-$side-$round.log 2>&1 )
    rm -rf $D
  done
done
echo done > /work/benchcmp/DONE
