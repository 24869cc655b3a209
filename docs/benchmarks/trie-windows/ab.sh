#!/bin/bash
# HTables balanced and compacted a window at a time (bench-b.jar) against whole tables (bench-a.jar): LSM_TRIE
# fills of NUM x (16 + 100 B) at scale factor FACTOR, settle, then 300,000 gets; jars alternated, a first in
# odd rounds. Each JVM logs its collections (NAME.gc) for the heap left after each (gcpeak.py).
# usage: [TIMEOUT=SECONDS] ab.sh SCRATCH ROUNDS NUM FACTOR [JVM_FLAG...] -- [BENCH_FLAG...]
#   e.g. ab.sh /tmp/s 2 20000000 1 -- --trie_table_buckets=8192
cd "$1" || exit 1
ROUNDS=$2 NUM=$3 FACTOR=$4
shift 4
JVM=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do JVM+=("$1"); shift; done
shift
COMMON="--engine=bellows:LSM_TRIE/NONE --benchmarks=fillrandom,readrandom --num=$NUM --reads=300000 --key_size=16 \
--value_size=100 --scale_factor=$FACTOR --settle_seconds=900 --progress=false"
for r in $(seq 1 "$ROUNDS"); do
  order="a b"; [ $((r % 2)) -eq 0 ] && order="b a"
  for jar in $order; do
    name=LSM_TRIE-NONE-$jar-$r
    rm -rf db-run
    timeout "${TIMEOUT:-0}" java "${JVM[@]}" -Xlog:gc:file=$name.gc -jar bench-$jar.jar $COMMON "$@" --db=db-run > $name.log 2>&1
    echo "$(date +%T) $name: exit $? $(grep -E '^fillrandom' $name.log | head -1 | cut -c1-90)"
  done
done
rm -rf db-run
echo DONE
