#!/bin/sh
# One compare run of the scale series (issue 17 item 4): LEVELED, FLSM and LSM_TRIE (default policy NONE,
# ON_HEAP) and RocksDB, at scale factor $1, --num $2, output in $3. Run from the repository root after
# mvn -B -q -o -pl engine-bench -am package -DskipTests
set -e
java -jar engine-bench/target/bellows-bench.jar \
    --engines=bellows:LEVELED/NONE,bellows:FLSM/NONE,bellows:LSM_TRIE/NONE,rocksdb --baseline=bellows:LEVELED/NONE \
    --benchmarks=fillrandom,readrandom --num="$2" --reads=200000 --key_size=16 --value_size=100 \
    --scale_factor="$1" --settle_seconds=600 --out="$3" --progress=false
