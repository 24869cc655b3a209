#!/usr/bin/env bash
# Issue 14 reads: WS2 and WS3 at 50% reads, LEVELED vs TRIAD, 2M operations on a 1M-key store (the long form's
# shape, fewer operations). Usage: reads.sh JAR OUTDIR
set -euo pipefail
JAR=$1; OUT=$2; mkdir -p "$OUT"
COMMON="--benchmarks=fillrandom,readrandomwriterandom --num=1000000 --operations=2000000 --key_size=16
  --value_size=100 --memstore_size=4M --target_file_size=2M --max_bytes_for_level_base=16M
  --block_cache_size=256M --settle_seconds=300 --seed=14 --readwritepercent=50"
for ws in ws2 ws3; do
  case $ws in ws2) P="--distribution=hotspot --hotspot=0.2/0.8";; ws3) P="--distribution=uniform";; esac
  java -jar "$JAR" --engines=bellows:LEVELED/NONE,bellows:TRIAD/NONE --baseline=bellows:LEVELED/NONE \
    $COMMON $P --out="$OUT/$ws" > "$OUT/$ws.txt" 2>&1
done
