package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.util.List;

/**
 * The operations the workloads use, so every workload runs unchanged on Bellows ({@link BellowsEngine})
 * or RocksDB ({@link RocksDbEngine}). Writes use the durability the engine was opened with. Safe for
 * concurrent use by client threads; a {@link Batch} or {@link Scan} belongs to one thread.
 */
interface BenchEngine extends AutoCloseable {
    /** Puts {@code key}; the engine may keep both arrays, so callers pass fresh ones. */
    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    Batch newBatch();

    /**
     * Copies the value of {@code key} into {@code dst} and returns its full length, or -1 if absent;
     * a longer value is truncated to {@code dst}.
     */
    int get(byte[] key, byte[] dst);

    Scan scan();

    /** A cursor limited to {@code [lower, upper)}; null for unbounded (the replay of a traced cursor). */
    Scan scan(byte[] lower, byte[] upper);

    /** The values of {@code keys} (null where absent), read as of one view. */
    List<byte[]> multiGet(List<byte[]> keys);

    /**
     * The engine's counters in Bellows' form, so one report prints both engines; counters an engine
     * does not keep are zero.
     */
    EngineStats stats();

    @Override
    void close();

    /** Writes applied atomically by {@link #commit()}; the arrays passed in may be reused afterwards. */
    interface Batch {
        void put(byte[] key, byte[] value);

        void delete(byte[] key);

        int count();

        /** Writes the batch and empties it. */
        void commit();
    }

    /** An ordered cursor over the store at the time it was made. */
    interface Scan extends AutoCloseable {
        void seekToFirst();

        void seek(byte[] key);

        void seekForPrev(byte[] key);

        void seekToLast();

        boolean isValid();

        void next();

        void prev();

        byte[] key();

        byte[] value();

        @Override
        void close();
    }
}
