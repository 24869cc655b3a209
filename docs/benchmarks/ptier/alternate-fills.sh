#!/bin/bash
# fillrandom then settle, PTIER and LEVELED alternately, twice, so that the machine's load falls on both
# alike. Run from the repository root after `mvn -B -q package -DskipTests`.
for round in 1 2; do
  for c in PTIER LEVELED; do
    rm -rf /tmp/ptier-fill-db
    echo "=== round $round $c"; uptime
    java -jar engine-bench/target/bellows-bench.jar --compaction=$c --benchmarks=fillrandom --num=2000000 \
      --value_size=100 --memstore_size=4M --target_file_size=2M --max_bytes_for_level_base=8M \
      --settle_seconds=300 --db=/tmp/ptier-fill-db --progress=false
  done
done
rm -rf /tmp/ptier-fill-db
