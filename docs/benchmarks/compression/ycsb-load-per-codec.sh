#!/bin/bash
cd "$(dirname "$0")/../../.."
W=engine-ycsb-binding/src/main/resources/workloads/workloada
for c in NONE LZ4 ZSTD; do
  D=$(mktemp -d /tmp/ycsbc-XXXX)
  java -jar engine-ycsb-binding/target/bellows-ycsb.jar -load -db io.bellows.ycsb.BellowsClient -P $W -p bellows.dir=$D \
     -p recordcount=100000 -p bellows.compression=$c -p bellows.bottommost_compression=$c -p bellows.memstore_size=16m \
     -p bellows.max_bytes_for_level_base=16m -p bellows.target_file_size=8m > /tmp/ycsb-$c.txt 2>&1
  echo "$c $(du -sb $D | cut -f1) $(du -sb $D/*.sst | awk '{s+=$1} END {print s}') $(grep -E 'OVERALL.*Throughput' /tmp/ycsb-$c.txt)"
  rm -rf $D
done
