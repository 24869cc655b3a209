#!/usr/bin/env bash
# Runs the JMH MemStore / merging-iterator / block-decode benchmarks and bellows-bench's default run
# from two builds, alternately, twice: docs/benchmarks.md "Engine core v2 against the layout before it".
# Usage: run.sh OLD_JAR_DIR NEW_JAR_DIR OUT_DIR   (each jar dir holds benchmarks.jar and bellows-bench.jar
# from `mvn -B -q package -DskipTests` of that commit; then summarize.py OUT_DIR prints the tables).
set -euo pipefail
OLD=$(realpath "$1"); NEW=$(realpath "$2"); OUT=$(realpath "$3")
mkdir -p "$OUT"
for round in 1 2; do
  for side in old new; do
    if [ $side = old ]; then J=$OLD; else J=$NEW; fi
    java -jar "$J/benchmarks.jar" 'MemStoreBenchmark|MergingIteratorBenchmark|BlockDecodeBenchmark' -f 1 \
      -rf json -rff "$OUT/jmh-$side-$round.json" > "$OUT/jmh-$side-$round.log" 2>&1
    D=$(mktemp -d)
    ( cd "$D" && java -jar "$J/bellows-bench.jar" > "$OUT/bench-$side-$round.log" 2>&1 )
    rm -rf "$D"
  done
done
