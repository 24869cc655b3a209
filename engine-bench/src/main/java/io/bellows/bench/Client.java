package io.bellows.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * One client thread's share of one workload: operations {@code [lo, hi)} of it (or, for the writer of
 * readwhilewriting, overwrites until told to stop). Times every engine call into its
 * {@link ThreadStats}; key and value generation stay outside the timed region.
 */
final class Client implements Runnable {
    private final BenchEngine db;
    private final Workload workload;
    private final KeyCodec keys;
    private final ValueGenerator values;
    private final KeyChooser chooser;
    private final RandomPermutation permutation;
    private final SplittableRandom random;
    private final AtomicLong records;
    private final BooleanSupplier stop;
    private final int batchSize;
    private final int seekNexts;
    private final int scanLength;
    private final int valueSize;
    private final int readWritePercent;
    private final long readSeqStartKey;
    private final long lo;
    private final long hi;
    private final ThreadStats stats = new ThreadStats();

    // NB: reads and batched writes reuse these arrays (the engine copies or only compares them);
    // direct puts and deletes get fresh arrays because the engine may keep what it is handed.
    private final byte[] scratchKey;
    private final byte[] scratchValue;
    private final byte[] readBuffer;
    private final BenchEngine.Batch batch;

    /**
     * @param permutation the key order of fillrandom, shared by all threads; null for other workloads
     * @param random the thread's source of operation choices (YCSB, readrandomwriterandom) and scan lengths
     * @param records how many keys the store holds, [0, records); YCSB inserts take the next number
     * @param stop for a writer that runs until readers finish; null when the share [lo, hi) bounds it
     * @param readSeqStartKey where readseq starts: -1 for the first key, else a key number
     */
    Client(BenchEngine db, Workload workload, BenchOptions o, KeyCodec keys, ValueGenerator values, KeyChooser chooser,
            RandomPermutation permutation, SplittableRandom random, AtomicLong records, BooleanSupplier stop,
            long readSeqStartKey, long lo, long hi) {
        this.db = db;
        this.workload = workload;
        this.keys = keys;
        this.values = values;
        this.chooser = chooser;
        this.permutation = permutation;
        this.random = random;
        this.records = records;
        this.stop = stop;
        this.batchSize = o.batchSize();
        this.seekNexts = o.seekNexts();
        this.scanLength = o.scanLength();
        this.valueSize = o.valueSize();
        this.readWritePercent = o.readWritePercent();
        this.readSeqStartKey = readSeqStartKey;
        this.lo = lo;
        this.hi = hi;
        this.scratchKey = new byte[keys.keySize()];
        this.scratchValue = new byte[valueSize];
        this.readBuffer = new byte[valueSize];
        this.batch = batchSize > 1 ? db.newBatch() : null;
    }

    ThreadStats stats() {
        return stats;
    }

    @Override
    public void run() {
        stats.startNanos = System.nanoTime();
        if (stop != null) {
            do {
                put(chooser.nextKey());
            } while (!stop.getAsBoolean());
            commitBatch();
        } else if (workload.mix() != null) {
            ycsb(workload.mix(), hi - lo);
        } else {
            dbBench();
        }
        stats.endNanos = System.nanoTime();
    }

    private void dbBench() {
        switch (workload) {
            case FILLSEQ:
                for (long i = lo; i < hi; i++) {
                    put(i);
                }
                commitBatch();
                break;
            case FILLRANDOM:
                for (long i = lo; i < hi; i++) {
                    put(permutation.apply(i));
                }
                commitBatch();
                break;
            case OVERWRITE:
                for (long i = lo; i < hi; i++) {
                    put(chooser.nextKey());
                }
                commitBatch();
                break;
            case DELETERANDOM:
                for (long i = lo; i < hi; i++) {
                    delete(chooser.nextKey());
                }
                commitBatch();
                break;
            case READRANDOM:
            case READWHILEWRITING:
                for (long i = lo; i < hi; i++) {
                    read(chooser.nextKey());
                }
                break;
            case READRANDOMWRITERANDOM:
                for (long i = lo; i < hi; i++) {
                    if (random.nextInt(100) < readWritePercent) {
                        read(chooser.nextKey());
                    } else {
                        put(chooser.nextKey());
                    }
                }
                commitBatch();
                break;
            case READSEQ:
                readSeq(hi - lo);
                break;
            case SEEKRANDOM:
                seekRandom(hi - lo);
                break;
            default:
                throw new IllegalStateException("no client loop for " + workload);
        }
    }

    private void put(long k) {
        if (batch == null) {
            byte[] key = keys.encode(k);
            byte[] value = values.next();
            long t0 = System.nanoTime();
            db.put(key, value);
            stats.recordLatency(System.nanoTime() - t0);
            stats.bytes += key.length + value.length;
        } else {
            keys.encode(k, scratchKey);
            byte[] value = scratchValue;
            if (values.variable()) {
                value = values.next();
            } else {
                values.next(scratchValue);
            }
            batch.put(scratchKey, value);
            stats.bytes += scratchKey.length + value.length;
            if (batch.count() == batchSize) {
                commitBatch();
            }
        }
        stats.countOp();
    }

    private void delete(long k) {
        if (batch == null) {
            byte[] key = keys.encode(k);
            long t0 = System.nanoTime();
            db.delete(key);
            stats.recordLatency(System.nanoTime() - t0);
        } else {
            keys.encode(k, scratchKey);
            batch.delete(scratchKey);
            if (batch.count() == batchSize) {
                commitBatch();
            }
        }
        stats.countOp();
        stats.bytes += scratchKey.length;
    }

    private void commitBatch() {
        if (batch == null || batch.count() == 0) {
            return;
        }
        long t0 = System.nanoTime();
        batch.commit();
        stats.recordLatency(System.nanoTime() - t0);
    }

    private void read(long k) {
        keys.encode(k, scratchKey);
        long t0 = System.nanoTime();
        int length = db.get(scratchKey, readBuffer);
        stats.recordLatency(System.nanoTime() - t0);
        countRead(length);
        stats.countOp();
    }

    private void countRead(int length) {
        if (length >= 0) {
            stats.found++;
            stats.bytes += scratchKey.length + length;
        } else {
            stats.notFound++;
        }
    }

    /** Reads up to {@code n} entries; ends early at the end of the store. */
    private void readSeq(long n) {
        try (BenchEngine.Scan c = db.scan()) {
            // The first step's latency includes the positioning.
            long t0 = System.nanoTime();
            if (readSeqStartKey < 0) {
                c.seekToFirst();
            } else {
                c.seek(keys.encode(readSeqStartKey));
            }
            for (long i = 0; i < n && c.isValid(); i++) {
                byte[] key = c.key();
                byte[] value = c.value();
                c.next();
                long t1 = System.nanoTime();
                stats.recordLatency(t1 - t0);
                t0 = t1;
                stats.countOp();
                stats.bytes += key.length + value.length;
            }
        }
    }

    /** db_bench's SeekRandom: a new cursor per seek, found when it lands on the sought key. */
    private void seekRandom(long n) {
        for (long i = 0; i < n; i++) {
            keys.encode(chooser.nextKey(), scratchKey);
            long t0 = System.nanoTime();
            try (BenchEngine.Scan c = db.scan()) {
                c.seek(scratchKey);
                if (c.isValid() && Arrays.equals(c.key(), scratchKey)) {
                    stats.found++;
                } else {
                    stats.notFound++;
                }
                for (int j = 0; j < seekNexts && c.isValid(); j++) {
                    stats.bytes += c.key().length + c.value().length;
                    c.next();
                }
            }
            stats.recordLatency(System.nanoTime() - t0);
            stats.countOp();
        }
    }

    /**
     * {@code n} operations drawn from {@code mix}, as YCSB's CoreWorkload does them on a one-value
     * record: read is a get, update and insert a put of a new value (insert with the next unused key
     * number), scan a cursor seek plus up to a uniform 1..scan_length entries, read-modify-write a get
     * then a put of the key, timed as one operation.
     */
    private void ycsb(YcsbMix mix, long n) {
        for (long i = 0; i < n; i++) {
            switch (mix.pick(random.nextDouble())) {
                case READ:
                    read(chooser.nextKey());
                    break;
                case UPDATE:
                    put(chooser.nextKey());
                    break;
                case INSERT:
                    put(records.getAndIncrement());
                    break;
                case SCAN:
                    scan(chooser.nextKey(), 1 + random.nextInt(scanLength));
                    break;
                default:
                    readModifyWrite(chooser.nextKey());
                    break;
            }
        }
        commitBatch();
    }

    private void scan(long k, int length) {
        keys.encode(k, scratchKey);
        long t0 = System.nanoTime();
        try (BenchEngine.Scan c = db.scan()) {
            c.seek(scratchKey);
            for (int j = 0; j < length && c.isValid(); j++) {
                stats.bytes += c.key().length + c.value().length;
                c.next();
            }
        }
        stats.recordLatency(System.nanoTime() - t0);
        stats.countOp();
    }

    private void readModifyWrite(long k) {
        byte[] key = keys.encode(k);
        byte[] value = values.next();
        long t0 = System.nanoTime();
        int length = db.get(key, readBuffer);
        db.put(key, value);
        stats.recordLatency(System.nanoTime() - t0);
        if (length >= 0) {
            stats.found++;
        } else {
            stats.notFound++;
        }
        stats.countOp();
        stats.bytes += key.length + Math.max(0, length) + valueSize;
    }
}
