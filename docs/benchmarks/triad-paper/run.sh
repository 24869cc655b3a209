#!/usr/bin/env bash
# TRIAD in the paper's own configuration (§5.1/§5.3 with RocksDB 2016 defaults): 8-byte keys, 255-byte
# values, 1M keys, 4 MiB MemStore, static levels with a 256 MiB L1 and 64 MiB tables, L0 trigger 4.
# Usage: run.sh JAR OUT OPS PROFILES...   (profiles: ws1 ws2 ws3; 10% reads)
set -euo pipefail
JAR=$1; OUT=$2; OPS=$3; shift 3; mkdir -p "$OUT"
COMMON="--benchmarks=fillrandom,readrandomwriterandom --num=1000000 --operations=$OPS --key_size=8
  --value_size=255 --memstore_size=4M --target_file_size=64M --max_bytes_for_level_base=256M
  --leveled_dynamic_level_bytes=false --triad_dynamic_level_bytes=false
  --block_cache_size=256M --settle_seconds=600 --seed=14 --readwritepercent=10"
for ws in "$@"; do
  case $ws in ws1) P="--distribution=hotspot --hotspot=0.01/0.99";; ws2) P="--distribution=hotspot --hotspot=0.2/0.8";; ws3) P="--distribution=uniform";; esac
  java -jar "$JAR" --engines=bellows:LEVELED/NONE,bellows:TRIAD/NONE --baseline=bellows:LEVELED/NONE \
    $COMMON $P --out="$OUT/$ws" > "$OUT/$ws.txt" 2>&1
done
