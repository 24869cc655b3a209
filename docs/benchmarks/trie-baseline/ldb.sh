#!/bin/bash
# LEVELED shaped like the LevelDB the LSM-trie paper measured against (4 MB MemTable, 10 MB L1, static level
# targets, round-robin picks), at the deepest configuration: 20M x (16 + 100 B), factor 64. LevelDB's
# 2 MB files would scale below the 64 KiB floor, so files are 4 MB before scaling (64 KiB after).
# usage: ldb.sh SCRATCH BENCH_JAR
cd "$1" || exit 1
rm -rf db-ldb
java -jar "$2" --engines=bellows:LEVELED/NONE --benchmarks=fillrandom --num=20000000 --key_size=16 \
  --value_size=100 --scale_factor=64 --memstore_size=4M --max_bytes_for_level_base=10M --target_file_size=4M \
  --leveled_dynamic_level_bytes=false --leveled_priority=round_robin --settle_seconds=1800 \
  --db=db-ldb --out=OUT-ldb --progress=false > ldb.log 2>&1
rm -rf db-ldb
echo DONE
