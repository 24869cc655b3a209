#!/bin/bash
# PTIER's prefix length on bellows-bench's keys (16 bytes, key number big-endian in the tail) and on
# YCSB's keys ("user" + the decimal digits of a 64-bit hash), with LEVELED as the reference.
# Run from the repository root after `mvn -B -q package -DskipTests`; writes to /tmp.
set -e
B="java -jar engine-bench/target/bellows-bench.jar --benchmarks=fillrandom,readrandom --num=2000000 --reads=200000
   --value_size=100 --memstore_size=4M --target_file_size=2M --max_bytes_for_level_base=8M --settle_seconds=300
   --progress=false --db=/tmp/ptier-sweep-db"
for p in 14 15 16; do
  echo "=== bench keys, PTIER prefix $p"; uptime
  $B --compaction=PTIER --ptier_prefix_length=$p; rm -rf /tmp/ptier-sweep-db
done
echo "=== bench keys, LEVELED"; uptime
$B --compaction=LEVELED; rm -rf /tmp/ptier-sweep-db

J=engine-ycsb-binding/target/bellows-ycsb.jar
W=engine-ycsb-binding/src/main/resources/workloads/workloadc
P="-p recordcount=1000000 -p operationcount=200000 -p fieldcount=1 -p fieldlength=100 -p bellows.memstore_size=4m
   -p bellows.target_file_size=2m -p bellows.max_bytes_for_level_base=8m"
for cfg in "PTIER 5" "PTIER 6" "PTIER 8" "PTIER 15" "LEVELED -"; do
  set -- $cfg
  D=/tmp/ycsb-sweep-db; rm -rf $D
  X=""; [ "$1" = PTIER ] && X="-p bellows.ptier_prefix_length=$2"
  echo "=== YCSB keys, $1 prefix $2"; uptime
  java -jar $J -load -db io.bellows.ycsb.BellowsClient -P $W $P -p bellows.compaction=$1 $X -p bellows.dir=$D 2>&1 \
    | grep -E "OVERALL|INSERT\], Average"
  java -jar $J -t -db io.bellows.ycsb.BellowsClient -P $W $P -p bellows.compaction=$1 $X -p bellows.dir=$D 2>&1 \
    | grep -E "OVERALL|READ\], Average|READ\], 99th"
  du -sm $D
done
rm -rf /tmp/ycsb-sweep-db
