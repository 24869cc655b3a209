"""One-at-a-time fdatasync rate of this machine's disk, in the directory given (default: the current one).

Writes 3,000 records of 130 bytes, each followed by fdatasync, to a new file three ways: appended to an
empty file (what a WAL does: every force also commits the file's new size), into space reserved with
posix_fallocate, and over zeroes written and synced beforehand (a recycled log). Prints writes/s for each.
Run it beside a SYNC benchmark: the disk's rate moves by 2x from one minute to the next.
"""
import os
import sys
import time

N = 3000


def run(directory, mode):
    path = os.path.join(directory, 'fdatasync_rate.bin')
    if os.path.exists(path):
        os.remove(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if mode == 'zeroed':
            os.write(fd, b'\0' * (N * 130 + 4096))
            os.fsync(fd)
            os.lseek(fd, 0, 0)
        elif mode == 'fallocate':
            os.posix_fallocate(fd, 0, N * 130 + 4096)
            os.fsync(fd)
        record = b'x' * 130
        start = time.time()
        for _ in range(N):
            os.write(fd, record)
            os.fdatasync(fd)
        return N / (time.time() - start)
    finally:
        os.close(fd)
        os.remove(path)


if __name__ == '__main__':
    d = sys.argv[1] if len(sys.argv) > 1 else '.'
    print({m: round(run(d, m)) for m in ('append', 'fallocate', 'zeroed')})
