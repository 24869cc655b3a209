#!/bin/bash
# FLSM reads on stored 20M x (16 B + 100 B) factor-64 stores (STORES/db-FLSM and STORES/db-LEVELED, made by
# `bellows-bench --benchmarks=fillrandom --num=20000000 --key_size=16 --value_size=100 --scale_factor=64
# --db=...`): guard lookups by 16-byte key prefixes (bench-new2.jar, 2026-12-02) against whole keys
# (bench-old.jar, d9be504), alternated, each on a fresh copy of the store; LEVELED once for the ratio.
# usage: run.sh STORES
STORES=$1
run() { # jar engine tag
  rm -rf ./dbx && cp -r "$STORES/db-$2" ./dbx && sync
  java -jar "$1" --engine=bellows:$2/NONE --db=./dbx --use_existing_db --benchmarks=readrandom --num=20000000 \
      --reads=500000 --key_size=16 --value_size=100 --scale_factor=64 --progress=false > "ab2-$3.log" 2>&1
}
for r in 1 2 3; do
  run bench-old.jar FLSM FLSM-old-$r
  run bench-new2.jar FLSM FLSM-new-$r
  if [ "$r" -le 1 ]; then run bench-new2.jar LEVELED LEVELED-$r; fi
done
rm -rf ./dbx
