#!/bin/bash
# Usage: run.sh NUM NAME ROUND... (from a copy of the repository, after mvn -B -q package -DskipTests).
# Each round runs LEVELED/NONE with static targets alone, and RocksDB with LEVELED/NONE (dynamic, the
# default) in one compare run; the order rotates between rounds. Logs go to NAME-roundN-{static,cmp}.log.
NUM=$1; NAME=$2; shift 2
J="java -jar engine-bench/target/bellows-bench.jar"
W="--benchmarks=fillrandom,readrandom --num=$NUM --reads=200000 --settle_seconds=900 --progress=false"
static() { $J --engine=bellows:LEVELED/NONE --leveled_dynamic_level_bytes=false $W --db=/tmp/dl-db-static \
    --out=/tmp/dl-runs/$NAME-round$1-static > $NAME-round$1-static.log 2>&1; }
cmp() { $J --engines=$2 $W --db=/tmp/dl-db-cmp --out=/tmp/dl-runs/$NAME-round$1-cmp > $NAME-round$1-cmp.log 2>&1; }
for r in "$@"; do
  case $r in
    1) static 1; cmp 1 rocksdb,bellows:LEVELED/NONE ;;
    2) cmp 2 bellows:LEVELED/NONE,rocksdb; static 2 ;;
    3) static 3; cmp 3 rocksdb,bellows:LEVELED/NONE ;;
  esac
  rm -rf /tmp/dl-db-static /tmp/dl-db-cmp
done
