#!/bin/bash
# Reopened 100M stores read alternately (tables preloaded), one round per ROUND argument, each round a new key
# seed. PROBE=1 runs devlat.py on a store's files just before its read. Rounds 1-3 ran with PROBE=0 from
# big.sh (then with 20 s, not 10 s, of quiet before each read), rounds 4-5 with PROBE=1.
# usage: reads.sh SCRATCH PROBE ROUND...   (SCRATCH holds bench.jar, devlat.py and the stores db-*)
cd "$1" && probe=$2 && shift 2
for r in "$@"; do
  for s in LEVELED FLSM LSM_TRIE; do
    sync; sleep 10
    if [ "$probe" = 1 ]; then python3 devlat.py 20000 1 db-$s | sed "s/^round 1/probe r$r/"; fi
    java -jar bench.jar --engine=bellows:$s/NONE --db=db-$s --use_existing_db --preload_tables=2 \
      --benchmarks=readrandom --num=100000000 --reads=300000 --key_size=16 --value_size=100 --seed=$r --progress=false > read-$s-$r.log 2>&1
    echo "$(date +%T) read $s round $r: $(grep -E '^readrandom' read-$s-$r.log | head -1)"
  done
done
