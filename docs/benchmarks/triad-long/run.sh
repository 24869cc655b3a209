#!/usr/bin/env bash
# Issue 14 item 7, long form: the TRIAD paper's skew profiles (WS1 1%/99%, WS2 20%/80%, WS3 uniform) at
# 10% and 50% reads, 10M operations each on a 1M-key store (16-byte keys, 100-byte values, 4 MiB MemStore,
# as §5.3), LEVELED, TRIAD and RocksDB in one compare run; then TRIAD with one technique alone at 10% reads.
# Usage: run.sh JAR OUTDIR   (JAR: engine-bench/target/bellows-bench.jar)
set -euo pipefail
JAR=$1
OUT=$2
mkdir -p "$OUT"
COMMON="--benchmarks=fillrandom,readrandomwriterandom --num=1000000 --operations=10000000 --key_size=16
  --value_size=100 --memstore_size=4M --target_file_size=2M --max_bytes_for_level_base=16M
  --block_cache_size=256M --settle_seconds=300 --seed=14"
profile() {
  case $1 in
    ws1) echo "--distribution=hotspot --hotspot=0.01/0.99" ;;
    ws2) echo "--distribution=hotspot --hotspot=0.2/0.8" ;;
    ws3) echo "--distribution=uniform" ;;
  esac
}
for ws in ws1 ws2 ws3; do
  for reads in 10 50; do
    java -jar "$JAR" --engines=bellows:LEVELED/NONE,bellows:TRIAD/NONE,rocksdb --baseline=bellows:LEVELED/NONE \
      $COMMON $(profile $ws) --readwritepercent=$reads --out="$OUT/$ws-r$reads" > "$OUT/$ws-r$reads.txt" 2>&1
  done
done
# One technique alone (the paper's Figures 10 and 11 use 10% reads).
for ws in ws1 ws2 ws3; do
  for only in mem disk log; do
    flags="--triad_mem=false --triad_disk=false --triad_log=false"
    flags=${flags/--triad_$only=false/--triad_$only=true}
    java -jar "$JAR" --engines=bellows:TRIAD/NONE $COMMON $(profile $ws) --readwritepercent=10 $flags \
      --out="$OUT/$ws-$only-only" > "$OUT/$ws-$only-only.txt" 2>&1
  done
done
