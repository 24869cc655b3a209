#!/bin/bash
# LSM_TRIE alone at factor 1 (real-size 32 MiB tables), 20M x (16 + 100 B): fill, settle, 200,000 gets, then what
# the tables hold at rest (htparse.py: bucket bytes against item bytes).
# usage: drain-f1.sh SCRATCH TAG BENCH_JAR
here=$(cd "$(dirname "$0")" && pwd)
cd "$1" || exit 1
tag=$2
rm -rf db-$tag
java -jar "$3" --engines=bellows:LSM_TRIE/NONE --benchmarks=fillrandom,readrandom --num=20000000 --reads=200000 \
  --key_size=16 --value_size=100 --scale_factor=1 --settle_seconds=600 --db=db-$tag --out=OUT-$tag --progress=false \
  > $tag.log 2>&1
python3 "$here/../trie-packed/htparse.py" db-$tag/bellows-LSM_TRIE-NONE > $tag-htparse.txt
rm -rf db-$tag
echo DONE
