#!/bin/bash
# Compaction I/O overlapped (bench-b.jar) against synchronous (bench-a.jar): fills of NUM x (16 + 100 B) at
# scale factor FACTOR, settle, then 100,000 gets, for each engine; jars alternated, a first in odd rounds.
# usage: ab.sh SCRATCH ROUNDS NUM FACTOR ENGINE...   e.g. ab.sh /tmp/s 2 10000000 8 LEVELED/NONE FLSM/NONE
cd "$1" || exit 1
ROUNDS=$2 NUM=$3 FACTOR=$4
shift 4
COMMON="--benchmarks=fillrandom,readrandom --num=$NUM --reads=100000 --key_size=16 --value_size=100 \
--scale_factor=$FACTOR --settle_seconds=600 --progress=false"
for r in $(seq 1 "$ROUNDS"); do
  order="a b"; [ $((r % 2)) -eq 0 ] && order="b a"
  for e in "$@"; do
    for jar in $order; do
      name=$(echo "$e" | tr '/' '-')-$jar-$r
      rm -rf db-run
      java -jar bench-$jar.jar --engine=bellows:$e $COMMON --db=db-run > $name.log 2>&1
      echo "$(date +%T) $name: $(grep -E '^fillrandom' $name.log | head -1 | cut -c1-90)"
    done
  done
done
rm -rf db-run
echo DONE
