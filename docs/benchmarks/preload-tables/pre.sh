#!/bin/bash
# Reopened stored 20M f64 stores: readrandom with tables opened lazily (0) or at open (4 threads), alternated.
cd $WORK
run() { # engine preload tag
  rm -rf dbx && cp -r $STORES/db-$1 dbx && sync
  java -jar bench2.jar --engine=bellows:$1/NONE --db=$WORK/dbx --use_existing_db --benchmarks=readrandom --num=20000000 --reads=300000 --key_size=16 --value_size=100 --scale_factor=64 --preload_tables=$2 --progress=false > pre-$3.log 2>&1
}
for r in 1 2; do
  run FLSM 0 FLSM-p0-$r
  run FLSM 4 FLSM-p4-$r
  run LEVELED 0 LEVELED-p0-$r
  run LEVELED 4 LEVELED-p4-$r
done
rm -rf dbx
