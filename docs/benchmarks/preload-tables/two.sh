#!/bin/bash
# Two readrandom passes in one process on a fresh copy of the stored 20M f64 store: the first pays table opens.
cd $WORK
run() { # engine tag
  rm -rf dbx && cp -r $STORES/db-$1 dbx && sync
  java -jar bench.jar --engine=bellows:$1/NONE --db=$WORK/dbx --use_existing_db --benchmarks=readrandom,readrandom --num=20000000 --reads=300000 --key_size=16 --value_size=100 --scale_factor=64 --progress=false > two-$2.log 2>&1
}
run FLSM FLSM-1
run LEVELED LEVELED-1
run FLSM FLSM-2
run LEVELED LEVELED-2
rm -rf dbx
