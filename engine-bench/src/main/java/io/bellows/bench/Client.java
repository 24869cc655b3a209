package io.bellows.bench;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import java.util.Arrays;

/**
 * One client thread's share of one workload: operations {@code [lo, hi)} of it. Times every engine
 * call into its {@link ThreadStats}; key and value generation stay outside the timed region.
 */
final class Client implements Runnable {
    private final Engine db;
    private final Workload workload;
    private final KeyCodec keys;
    private final ValueGenerator values;
    private final KeyChooser chooser;
    private final RandomPermutation permutation;
    private final WriteOptions writeOptions;
    private final int batchSize;
    private final int seekNexts;
    private final int valueSize;
    private final long readSeqStartKey;
    private final long lo;
    private final long hi;
    private final ThreadStats stats = new ThreadStats();

    // NB: reads and batched writes reuse these arrays (the engine copies or only compares them);
    // direct puts and deletes get fresh arrays because the engine may keep what it is handed.
    private final byte[] scratchKey;
    private final byte[] scratchValue;
    private final byte[] readBuffer;
    private final WriteBatch batch;

    /**
     * @param permutation the key order of fillrandom, shared by all threads; null for other workloads
     * @param readSeqStartKey where readseq starts: -1 for the first key, else a key number
     */
    Client(Engine db, Workload workload, BenchOptions o, KeyCodec keys, ValueGenerator values, KeyChooser chooser,
            RandomPermutation permutation, long readSeqStartKey, long lo, long hi) {
        this.db = db;
        this.workload = workload;
        this.keys = keys;
        this.values = values;
        this.chooser = chooser;
        this.permutation = permutation;
        this.writeOptions = WriteOptions.of(o.durability());
        this.batchSize = o.batchSize();
        this.seekNexts = o.seekNexts();
        this.valueSize = o.valueSize();
        this.readSeqStartKey = readSeqStartKey;
        this.lo = lo;
        this.hi = hi;
        this.scratchKey = new byte[keys.keySize()];
        this.scratchValue = new byte[valueSize];
        this.readBuffer = new byte[valueSize];
        this.batch = batchSize > 1 ? new WriteBatch() : null;
    }

    ThreadStats stats() {
        return stats;
    }

    @Override
    public void run() {
        stats.startNanos = System.nanoTime();
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
                readRandom(hi - lo);
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
        stats.endNanos = System.nanoTime();
    }

    private void put(long k) {
        if (batch == null) {
            byte[] key = keys.encode(k);
            byte[] value = values.next();
            long t0 = System.nanoTime();
            db.put(key, value, writeOptions);
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
        stats.ops++;
    }

    private void delete(long k) {
        if (batch == null) {
            byte[] key = keys.encode(k);
            long t0 = System.nanoTime();
            db.delete(key, writeOptions);
            stats.recordLatency(System.nanoTime() - t0);
        } else {
            keys.encode(k, scratchKey);
            batch.delete(scratchKey);
            if (batch.count() == batchSize) {
                commitBatch();
            }
        }
        stats.ops++;
        stats.bytes += scratchKey.length;
    }

    private void commitBatch() {
        if (batch == null || batch.count() == 0) {
            return;
        }
        long t0 = System.nanoTime();
        db.write(batch, writeOptions);
        stats.recordLatency(System.nanoTime() - t0);
        batch.clear();
    }

    private void readRandom(long n) {
        ReadOptions options = ReadOptions.defaults();
        for (long i = 0; i < n; i++) {
            keys.encode(chooser.nextKey(), scratchKey);
            long t0 = System.nanoTime();
            int length = db.get(scratchKey, readBuffer, 0, options);
            stats.recordLatency(System.nanoTime() - t0);
            stats.ops++;
            if (length >= 0) {
                stats.found++;
                stats.bytes += scratchKey.length + length;
            } else {
                stats.notFound++;
            }
        }
    }

    /** Reads up to {@code n} entries; ends early at the end of the store. */
    private void readSeq(long n) {
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
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
                stats.ops++;
                stats.bytes += key.length + value.length;
            }
        }
    }

    /** db_bench's SeekRandom: a new cursor per seek, found when it lands on the sought key. */
    private void seekRandom(long n) {
        ReadOptions options = ReadOptions.defaults();
        for (long i = 0; i < n; i++) {
            keys.encode(chooser.nextKey(), scratchKey);
            long t0 = System.nanoTime();
            try (Cursor c = db.cursor(options)) {
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
            stats.ops++;
        }
    }
}
