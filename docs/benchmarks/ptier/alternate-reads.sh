#!/bin/bash
# readrandom on the PTIER and LEVELED stores the 2M x 100 B compare run kept, alternately, twice, so
# that the machine's load falls on both alike. Run from the repository root after the compare run.
for round in 1 2; do
  for c in PTIER LEVELED; do
    echo "=== round $round $c"; uptime
    java -jar engine-bench/target/bellows-bench.jar --use_existing_db --db=/tmp/ptier-cmp-db/bellows-$c-NONE \
      --compaction=$c --benchmarks=readrandom --num=2000000 --reads=200000 --memstore_size=4M \
      --target_file_size=2M --max_bytes_for_level_base=8M --progress=false
  done
done
