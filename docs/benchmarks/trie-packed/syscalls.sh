#!/bin/bash
# usage: syscalls.sh OUTDIR JAR NUM ENGINE   (ENGINE e.g. LSM_TRIE/NONE): one fill at factor 64 under perf stat
# (syscall counts), with per-thread user and sys CPU sampled from /proc (threads.py)
HERE=$(cd "$(dirname "$0")" && pwd); cd "$1" || exit 1
rm -rf db
perf stat -o perf.txt -e 'syscalls:sys_enter_pwrite64,syscalls:sys_enter_write,syscalls:sys_enter_futex,syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync,syscalls:sys_enter_openat,syscalls:sys_enter_pread64,syscalls:sys_enter_read,syscalls:sys_enter_madvise,syscalls:sys_enter_mmap,syscalls:sys_enter_munmap,syscalls:sys_enter_mprotect,syscalls:sys_enter_sched_yield,syscalls:sys_enter_fallocate,syscalls:sys_enter_ftruncate,syscalls:sys_enter_close,syscalls:sys_enter_unlink,syscalls:sys_enter_rename,syscalls:sys_enter_pwritev,syscalls:sys_enter_writev,page-faults,context-switches' \
  java -jar "$2" --engine=bellows:$4 \
  --benchmarks=fillrandom --num=$3 --key_size=16 --value_size=100 --scale_factor=64 --settle_seconds=120 \
  --db=db --out=out --progress=false > fill.log 2>&1 &
sleep 2
JPID=$(pgrep -f "bellows-bench|bench.jar" -n)
python3 "$HERE/threads.py" $JPID threads.txt &
wait
rm -rf db
echo DONE
