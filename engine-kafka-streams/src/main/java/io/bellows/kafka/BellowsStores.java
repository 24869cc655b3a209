package io.bellows.kafka;

import io.bellows.engine.Compression;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import java.time.Duration;

/**
 * Factories of Bellows store suppliers, the counterpart of Kafka's {@code Stores.persistent*} methods.
 * Each has a variant taking the {@link EngineOptions} its stores open with (the compaction scheme, the
 * MemStore policy and layout, the MemStore and block cache sizes); without it they use
 * {@link #defaultOptions()}. A {@link BellowsConfigSetter} named in the application's configs adjusts
 * either per store.
 */
public final class BellowsStores {
    private BellowsStores() {
    }

    /**
     * The engine options of a store when none are given: the engine's defaults with a 16 MiB MemStore, a
     * 16 MiB block cache and one background thread, because an application opens one store per task
     * and store (and one per segment of a window or session store), not one per process; and table reads
     * through the OS page cache rather than direct I/O, as Kafka's RocksDB stores read: a small block
     * cache per store over direct I/O made an aggregation 2.4 to 4 times slower (docs/benchmarks.md,
     * "Kafka Streams"); and the ADAPTIVE MemStore policy, whose small active segment keeps a put's
     * skiplist walk short: with eight stores per process, NONE (one 16 MiB skiplist per store) restored
     * a changelog in 1.96× RocksDB's time and processed at 0.77× its rate, ADAPTIVE in 0.88× and at 1.02×;
     * and no compression on any level, as Kafka's RocksDB store (NO_COMPRESSION): the engine's default
     * ZSTD on the last level took 30% of a 10M-record restore's CPU samples.
     */
    public static EngineOptions defaultOptions() {
        return EngineOptions.builder().memstoreSize(16L << 20).blockCacheSize(16L << 20).backgroundThreads(1)
                .inMemoryCompaction(InMemoryCompaction.ADAPTIVE).compression(Compression.NONE)
                .bottommostCompression(Compression.NONE).directIo(false).build();
    }

    /** A key-value store of plain values. */
    public static BellowsKeyValueBytesStoreSupplier keyValueStore(String name) {
        return keyValueStore(name, defaultOptions());
    }

    /** A key-value store of plain values, opened with {@code options}. */
    public static BellowsKeyValueBytesStoreSupplier keyValueStore(String name, EngineOptions options) {
        return new BellowsKeyValueBytesStoreSupplier(name, options, StoreFormat.PLAIN);
    }

    /** A key-value store of Kafka's timestamped values (what the DSL's KTables use). */
    public static BellowsKeyValueBytesStoreSupplier timestampedKeyValueStore(String name) {
        return timestampedKeyValueStore(name, defaultOptions());
    }

    /** A key-value store of Kafka's timestamped values, opened with {@code options}. */
    public static BellowsKeyValueBytesStoreSupplier timestampedKeyValueStore(String name, EngineOptions options) {
        return new BellowsKeyValueBytesStoreSupplier(name, options, StoreFormat.TIMESTAMPED);
    }

    /** A key-value store of values with headers and timestamp (Kafka's headers format), opened with {@code options}. */
    public static BellowsKeyValueBytesStoreSupplier timestampedKeyValueStoreWithHeaders(String name, EngineOptions options) {
        return new BellowsKeyValueBytesStoreSupplier.WithHeaders(name, options);
    }

    /** A window store of plain values (retention and window size as in {@code Stores.persistentWindowStore}). */
    public static BellowsWindowBytesStoreSupplier windowStore(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return windowStore(name, retentionPeriod, windowSize, retainDuplicates, defaultOptions());
    }

    /** A window store of plain values, opened with {@code options}. */
    public static BellowsWindowBytesStoreSupplier windowStore(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates, EngineOptions options) {
        return new BellowsWindowBytesStoreSupplier(name, millis(retentionPeriod, "retentionPeriod"),
                millis(windowSize, "windowSize"), retainDuplicates, options, StoreFormat.PLAIN, false);
    }

    /** A window store of Kafka's timestamped values (what the DSL's windowed aggregations use). */
    public static BellowsWindowBytesStoreSupplier timestampedWindowStore(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates) {
        return timestampedWindowStore(name, retentionPeriod, windowSize, retainDuplicates, defaultOptions());
    }

    /** A window store of Kafka's timestamped values, opened with {@code options}. */
    public static BellowsWindowBytesStoreSupplier timestampedWindowStore(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates, EngineOptions options) {
        return new BellowsWindowBytesStoreSupplier(name, millis(retentionPeriod, "retentionPeriod"),
                millis(windowSize, "windowSize"), retainDuplicates, options, StoreFormat.TIMESTAMPED, false);
    }

    /** A window store of Kafka's values with headers and timestamp, opened with {@code options}. */
    public static BellowsWindowBytesStoreSupplier timestampedWindowStoreWithHeaders(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates, EngineOptions options) {
        return new BellowsWindowBytesStoreSupplier(name, millis(retentionPeriod, "retentionPeriod"),
                millis(windowSize, "windowSize"), retainDuplicates, options, StoreFormat.HEADERS, false);
    }

    /** A session store (retention as in {@code Stores.persistentSessionStore}). */
    public static BellowsSessionBytesStoreSupplier sessionStore(String name, Duration retentionPeriod) {
        return sessionStore(name, retentionPeriod, defaultOptions());
    }

    /** A session store opened with {@code options}. */
    public static BellowsSessionBytesStoreSupplier sessionStore(String name, Duration retentionPeriod, EngineOptions options) {
        return new BellowsSessionBytesStoreSupplier(name, millis(retentionPeriod, "retentionPeriod"), options, false);
    }

    /** A session store of Kafka's values with headers, opened with {@code options}. */
    public static BellowsSessionBytesStoreSupplier sessionStoreWithHeaders(String name, Duration retentionPeriod,
            EngineOptions options) {
        return new BellowsSessionBytesStoreSupplier(name, millis(retentionPeriod, "retentionPeriod"), options, true);
    }

    static long millis(Duration d, String what) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(what + " cannot be null or negative");
        }
        return d.toMillis();
    }
}
