package io.bellows.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Options of an engine; immutable, made with {@link #builder()}. Every option has a default that
 * suits a general workload; each setter names its limits and rejects values outside them. The knobs
 * of one compaction scheme live in that scheme's {@link CompactionOptions} ({@link LeveledOptions},
 * {@link FlsmOptions}, {@link TrieOptions}), given with {@link Builder#compaction(CompactionOptions)}.
 */
public final class EngineOptions {
    /** The largest {@link Builder#maxValueLength} allowed: 256 MiB. */
    public static final int MAX_VALUE_LENGTH_LIMIT = 256 << 20;

    /** The settings, a private copy of the builder that made them (its fields are immutable values). */
    private final Builder values;

    private EngineOptions(Builder b) {
        values = b.copy();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every option at its default (LEVELED, NONE, a 64 MiB MemStore; table under Options in the README). */
    public static EngineOptions defaults() {
        return builder().build();
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        return values.copy();
    }

    /** The disk compaction scheme: {@code compactionOptions().style()}. */
    public CompactionStyle compaction() {
        return values.compactionOptions.style();
    }

    /**
     * The options of the compaction scheme: a {@link LeveledOptions}, {@link FlsmOptions} or
     * {@link TrieOptions}, matching {@link #compaction()}.
     */
    public CompactionOptions compactionOptions() {
        return values.compactionOptions;
    }

    /** The MemStore policy: NONE, or one of Accordion's compacting policies. */
    public InMemoryCompaction inMemoryCompaction() {
        return values.inMemoryCompaction;
    }

    /** MemStore bytes that trigger a flush. */
    public long memstoreSize() {
        return values.memstoreSize;
    }

    /** The longest value a write may carry. */
    public int maxValueLength() {
        return values.maxValueLength;
    }

    /** Target size of an SSTable data block before compression. */
    public int blockSize() {
        return values.blockSize;
    }

    /** Entries between restart points in a data block. */
    public int blockRestartInterval() {
        return values.blockRestartInterval;
    }

    /** Bloom filter bits per key in each SSTable; 0 for none. */
    public int bloomBitsPerKey() {
        return values.bloomBitsPerKey;
    }

    /** The codec of SSTable data blocks written to {@code level} of a store of {@code levels} levels. */
    public Compression compression(int level, int levels) {
        List<Compression> perLevel = values.compression;
        return level == levels - 1 ? values.bottommostCompression : perLevel.get(Math.min(level, perLevel.size() - 1));
    }

    /** Capacity of the block cache in bytes; 0 for none. */
    public long blockCacheSize() {
        return values.blockCacheSize;
    }

    /** The block cache shared with other engines, or null: the engine then has its own of {@link #blockCacheSize()}. */
    public SharedCache sharedCache() {
        return values.sharedCache;
    }

    /** The MemStore budget shared with other engines, or null: the engine flushes at its own memstoreSize only. */
    public WriteBufferManager writeBufferManager() {
        return values.writeBufferManager;
    }

    /** Size at which compaction cuts its output tables. */
    public long targetFileSize() {
        return values.targetFileSize;
    }

    /** Target size of L1 (of the base level with dynamic level bytes). */
    public long maxBytesForLevelBase() {
        return values.maxBytesForLevelBase;
    }

    /** How much larger each level's target is than the one above. */
    public int levelSizeMultiplier() {
        return values.levelSizeMultiplier;
    }

    /** Levels including L0 (LSM_TRIE: its trie depth decides). */
    public int numLevels() {
        return values.numLevels;
    }

    /** L0 tables that make an L0 compaction due. */
    public int l0CompactionTrigger() {
        return values.l0CompactionTrigger;
    }

    /** L0 tables from which writes are slowed down. */
    public int l0SlowdownTrigger() {
        return values.l0SlowdownTrigger;
    }

    /** L0 tables from which writes stop until compaction catches up. */
    public int l0StopTrigger() {
        return values.l0StopTrigger;
    }

    /** Pending compaction bytes that slow writes down, 0 = no limit ({@link Builder#pendingCompactionBytesLimits}). */
    public long softPendingCompactionBytesLimit() {
        return values.softPendingBytes < 0 ? 64 * values.maxBytesForLevelBase : values.softPendingBytes;
    }

    /** Pending compaction bytes that stop writes, 0 = no limit ({@link Builder#pendingCompactionBytesLimits}). */
    public long hardPendingCompactionBytesLimit() {
        return values.hardPendingBytes < 0 ? 256 * values.maxBytesForLevelBase : values.hardPendingBytes;
    }

    /** How often the WAL is forced in the background for ASYNC writes. */
    public Duration walSyncInterval() {
        return values.walSyncInterval;
    }

    /** Whether table files use direct I/O where the file system supports it. */
    public boolean directIo() {
        return values.directIo;
    }

    /** Threads for flushes and compactions. */
    public int backgroundThreads() {
        return values.backgroundThreads;
    }

    /** Threads that open every table during {@link Engine#open}; 0 opens each on its first read. */
    public int preloadTableThreads() {
        return values.preloadTableThreads;
    }

    /** Whether opening a directory without a store creates one. */
    public boolean createIfMissing() {
        return values.createIfMissing;
    }

    /** The file {@link Engine#startTrace} records to from open, or null for none. */
    public Path traceFile() {
        return values.traceFile;
    }

    /** How the trace of {@link #traceFile()} is recorded. */
    public TraceOptions traceOptions() {
        return values.traceOptions;
    }

    /** The listeners told of flushes, compactions, stalls and background errors. */
    public List<EventListener> listeners() {
        return values.listeners;
    }

    /** Whether opening a directory that holds a store fails. */
    public boolean errorIfExists() {
        return values.errorIfExists;
    }

    /** What opening the store does with a damaged WAL; see {@link WalRecoveryMode}. */
    public WalRecoveryMode walRecoveryMode() {
        return values.walRecoveryMode;
    }

    /** A: the active segment's share of {@link #memstoreSize()} (compacting policies). */
    public double activeSegmentFraction() {
        return values.activeSegmentFraction;
    }

    /** S: immutable segments the pipeline holds before BASIC and ADAPTIVE merge them. */
    public int pipelineSegments() {
        return values.pipelineSegments;
    }

    /** R: ADAPTIVE compacts only when the redundant fraction of the last merge exceeds it. */
    public double adaptiveThreshold() {
        return values.adaptiveThreshold;
    }

    /** Largest MSLAB chunk. */
    public int mslabChunkSize() {
        return values.mslabChunkSize;
    }

    /** Whether compacting policies copy cell data into pooled chunks. */
    public boolean mslab() {
        return values.mslab;
    }

    /** Where the MemStore keeps cells and indices. */
    public MemoryLayout memoryLayout() {
        return values.memoryLayout;
    }

    /**
     * Most bytes of off-heap chunks the OFF_HEAP layout holds at once; 0 when not set, in which case
     * the layout takes {@link #defaultOffHeapLimit(long)} of the MemStore size.
     */
    public long offHeapLimit() {
        return values.offHeapLimit;
    }

    /**
     * The off-heap limit used when none is set: four MemStores' worth. Writers stop at two (a full
     * MemStore while the previous one flushes); chunk tails, the serialized index (16 bytes per cell)
     * and an in-memory compaction's output, held until it replaces its inputs, take the rest.
     */
    public static long defaultOffHeapLimit(long memstoreSize) {
        return 4 * memstoreSize;
    }

    @Override
    public String toString() {
        return OptionsText.of(this, values.compression, values.bottommostCompression);
    }

    /** Builder of {@link EngineOptions}; each setter validates its argument. */
    public static final class Builder implements Cloneable {
        private CompactionOptions compactionOptions = LeveledOptions.defaults();
        private InMemoryCompaction inMemoryCompaction = InMemoryCompaction.NONE;
        private long memstoreSize = 64L << 20;
        private int maxValueLength = 16 << 20;
        /** Whether maxValueLength was chosen (then it is checked against offHeapLimit) or is the default. */
        private boolean maxValueLengthSet;
        private int blockSize = 4096;
        private int blockRestartInterval = 16;
        private int bloomBitsPerKey = 10;
        private List<Compression> compression = List.of(Compression.NONE, Compression.NONE, Compression.LZ4);
        private Compression bottommostCompression = Compression.ZSTD;
        private List<EventListener> listeners = List.of();
        private long blockCacheSize = 64L << 20;
        private SharedCache sharedCache;
        private WriteBufferManager writeBufferManager;
        private long targetFileSize = 64L << 20;
        private long maxBytesForLevelBase = 256L << 20;
        private int levelSizeMultiplier = 10;
        private int numLevels = 7;
        private int l0CompactionTrigger = 4;
        private int l0SlowdownTrigger = 20;
        private int l0StopTrigger = 36;
        private long softPendingBytes = -1;
        private long hardPendingBytes = -1;
        private Duration walSyncInterval = Duration.ofMillis(100);
        private boolean directIo = true;
        private int backgroundThreads = 2;
        private int preloadTableThreads;
        private boolean createIfMissing = true;
        private boolean errorIfExists = false;
        private WalRecoveryMode walRecoveryMode = WalRecoveryMode.POINT_IN_TIME;
        private double activeSegmentFraction = 0.02;
        private int pipelineSegments = 4;
        private double adaptiveThreshold = 0.2;
        private int mslabChunkSize = 2 << 20;
        private boolean mslab = true;
        private MemoryLayout memoryLayout = MemoryLayout.ON_HEAP;
        private long offHeapLimit;
        private Path traceFile;
        private TraceOptions traceOptions = TraceOptions.defaults();

        private Builder() {}

        /**
         * The disk compaction scheme with its default options (default LEVELED), replacing any scheme
         * options set before; {@link #compaction(CompactionOptions)} selects a scheme with options.
         */
        public Builder compaction(CompactionStyle style) {
            compactionOptions = CompactionOptions.defaults(Objects.requireNonNull(style, "compaction"));
            return this;
        }

        /**
         * The disk compaction scheme {@code options.style()} with these options, e.g.
         * {@code compaction(FlsmOptions.builder().maxTablesPerGuard(6).build())}.
         */
        public Builder compaction(CompactionOptions options) {
            compactionOptions = Objects.requireNonNull(options, "compaction");
            return this;
        }

        /** The MemStore policy; default NONE. */
        public Builder inMemoryCompaction(InMemoryCompaction policy) {
            inMemoryCompaction = Objects.requireNonNull(policy, "inMemoryCompaction");
            return this;
        }

        /** Bytes of MemStore data that trigger a flush to disk; 64 KiB to 64 GiB, default 64 MiB. */
        public Builder memstoreSize(long bytes) {
            memstoreSize = OptionChecks.range("memstoreSize", bytes, 64L << 10, 64L << 30);
            return this;
        }

        /**
         * Largest value accepted; 0 to 256 MiB, default 16 MiB. Set explicitly under OFF_HEAP with an
         * offHeapLimit, it must not exceed that limit.
         */
        public Builder maxValueLength(int bytes) {
            maxValueLength = (int) OptionChecks.range("maxValueLength", bytes, 0, MAX_VALUE_LENGTH_LIMIT);
            maxValueLengthSet = true;
            return this;
        }

        /** Target uncompressed size of a table data block; 512 B to 1 MiB, default 4 KiB. */
        public Builder blockSize(int bytes) {
            blockSize = (int) OptionChecks.range("blockSize", bytes, 512, 1 << 20);
            return this;
        }

        /** Keys between restart points in a data block; 1 to 1024, default 16. */
        public Builder blockRestartInterval(int keys) {
            blockRestartInterval = (int) OptionChecks.range("blockRestartInterval", keys, 1, 1024);
            return this;
        }

        /** SSTable codecs by level (entry i for level i, the last for deeper ones); default NONE, NONE, LZ4. */
        public Builder compression(Compression... perLevel) {
            OptionChecks.range("compression levels", perLevel.length, 1, 64);
            compression = List.of(perLevel);
            return this;
        }

        /** Codec of the last level's SSTable data blocks, which hold most of the data; default ZSTD. */
        public Builder bottommostCompression(Compression codec) {
            bottommostCompression = Objects.requireNonNull(codec, "bottommostCompression");
            return this;
        }

        /** Bloom filter bits per key; 0 to 64, 0 for none, default 10. */
        public Builder bloomBitsPerKey(int bits) {
            bloomBitsPerKey = (int) OptionChecks.range("bloomBitsPerKey", bits, 0, 64);
            return this;
        }

        /** Capacity of the engine's block cache; 0 (none) to 1 TiB, default 64 MiB. */
        public Builder blockCacheSize(long bytes) {
            blockCacheSize = OptionChecks.range("blockCacheSize", bytes, 0, 1L << 40);
            return this;
        }

        /** A block cache shared with other engines, used instead of one of {@link #blockCacheSize}; null for none. */
        public Builder sharedCache(SharedCache cache) {
            sharedCache = cache;
            return this;
        }

        /** A MemStore memory budget shared with other engines (flushes the largest when passed); null for none. */
        public Builder writeBufferManager(WriteBufferManager manager) {
            writeBufferManager = manager;
            return this;
        }

        /** Size at which compaction output is cut into a new table; 64 KiB to 4 GiB, default 64 MiB. */
        public Builder targetFileSize(long bytes) {
            targetFileSize = OptionChecks.range("targetFileSize", bytes, 64L << 10, 4L << 30);
            return this;
        }

        /** Target size of level 1; levels below grow by {@link #levelSizeMultiplier}; default 256 MiB. */
        public Builder maxBytesForLevelBase(long bytes) {
            maxBytesForLevelBase = OptionChecks.range("maxBytesForLevelBase", bytes, 64L << 10, 1L << 44);
            return this;
        }

        /** Size ratio between adjacent levels; 2 to 100, default 10. */
        public Builder levelSizeMultiplier(int ratio) {
            levelSizeMultiplier = (int) OptionChecks.range("levelSizeMultiplier", ratio, 2, 100);
            return this;
        }

        /** Number of levels including L0; 2 to 20, default 7. */
        public Builder numLevels(int levels) {
            numLevels = (int) OptionChecks.range("numLevels", levels, 2, 20);
            return this;
        }

        /**
         * L0 table counts that start a compaction (default 4), slow writers down (default 20) and stop
         * them until compaction catches up (default 36); 1 to 1000, compaction &lt;= slowdown &lt;= stop.
         */
        public Builder l0Triggers(int compaction, int slowdown, int stop) {
            OptionChecks.range("l0CompactionTrigger", compaction, 1, 1000);
            OptionChecks.range("l0SlowdownTrigger", slowdown, 1, 1000);
            OptionChecks.range("l0StopTrigger", stop, 1, 1000);
            if (compaction > slowdown || slowdown > stop) {
                throw new IllegalArgumentException("L0 triggers must satisfy compaction (" + compaction
                        + ") <= slowdown (" + slowdown + ") <= stop (" + stop + ")");
            }
            l0CompactionTrigger = compaction;
            l0SlowdownTrigger = slowdown;
            l0StopTrigger = stop;
            return this;
        }

        /** Limits on the compaction backlog a scheme estimates (RocksDB's soft_ and hard_pending_compaction_bytes_limit;
         * LEVELED and TRIAD estimate it): from {@code soft} each write group is delayed once, from {@code hard} writes
         * stop until compaction catches up; 0 = no limit, else 1 MiB to 1 PiB, soft &lt;= hard. Default 64 and 256 ×
         * maxBytesForLevelBase (16 and 64 GiB), a quarter of RocksDB's: Bellows compacts more slowly. */
        public Builder pendingCompactionBytesLimits(long soft, long hard) {
            OptionChecks.range("softPendingCompactionBytesLimit (<= hard)", soft, 0, hard == 0 ? Long.MAX_VALUE : hard);
            softPendingBytes = soft == 0 ? 0 : OptionChecks.range("softPendingCompactionBytesLimit", soft, 1L << 20, 1L << 50);
            hardPendingBytes = hard == 0 ? 0 : OptionChecks.range("hardPendingCompactionBytesLimit", hard, 1L << 20, 1L << 50);
            return this;
        }

        /** How often the WAL is forced in the background for ASYNC writes; 1 ms to 1 h, default 100 ms. */
        public Builder walSyncInterval(Duration interval) {
            Objects.requireNonNull(interval, "walSyncInterval");
            if (interval.compareTo(Duration.ofHours(1)) > 0 || interval.compareTo(Duration.ofMillis(1)) < 0) {
                throw new IllegalArgumentException("walSyncInterval must be between 1 ms and 1 h, got " + interval);
            }
            walSyncInterval = interval;
            return this;
        }

        /**
         * Whether table files use direct I/O where the file system supports it (default true). Where it
         * does not, tables use buffered I/O; {@link EngineStats.Io#tableIoMode()} says which is in effect.
         */
        public Builder directIo(boolean enabled) {
            directIo = enabled;
            return this;
        }

        /** Threads for flushes and compactions; 1 to 64, default 2. */
        public Builder backgroundThreads(int threads) {
            backgroundThreads = (int) OptionChecks.range("backgroundThreads", threads, 1, 64);
            return this;
        }

        /**
         * Opens the reader of every table (index, filter, properties) during {@link Engine#open}, on this many
         * threads, so that no read pays a table's open (RocksDB's {@code max_open_files=-1}); 0 to 64,
         * default 0: each table opens on its first read, as in LevelDB. The open then takes longer, by about
         * three block reads per table divided among the threads.
         */
        public Builder preloadTables(int threads) {
            preloadTableThreads = (int) OptionChecks.range("preloadTables", threads, 0, 64);
            return this;
        }

        /** Whether opening a directory without a store creates one; default true. */
        public Builder createIfMissing(boolean create) {
            createIfMissing = create;
            return this;
        }

        /** Listeners told of the engine's background work ({@link EventListener}); default none. */
        public Builder listeners(EventListener... all) {
            listeners = List.of(all);
            return this;
        }

        /** Whether opening a directory that holds a store fails; default false. */
        public Builder errorIfExists(boolean error) {
            errorIfExists = error;
            return this;
        }

        /** What opening the store does with a damaged WAL (default {@link WalRecoveryMode#POINT_IN_TIME}). */
        public Builder walRecoveryMode(WalRecoveryMode mode) {
            walRecoveryMode = Objects.requireNonNull(mode, "walRecoveryMode");
            return this;
        }

        /**
         * A: the active segment's share of memstoreSize before an in-memory flush makes it immutable
         * (compacting policies only); 0.001 to 1, default 0.02. See docs/tuning.md.
         */
        public Builder activeSegmentFraction(double fraction) {
            activeSegmentFraction = OptionChecks.fraction("activeSegmentFraction", fraction, 0.001, 1);
            return this;
        }

        /** S: immutable segments the pipeline holds before BASIC and ADAPTIVE merge them; 1 to 64, default 4. */
        public Builder pipelineSegments(int segments) {
            pipelineSegments = (int) OptionChecks.range("pipelineSegments", segments, 1, 64);
            return this;
        }

        /**
         * R: ADAPTIVE compacts (with a probability that grows until the next disk flush) only when the
         * fraction of redundant versions found by the last merge exceeds it; 0 to 1, default 0.2.
         */
        public Builder adaptiveThreshold(double threshold) {
            adaptiveThreshold = OptionChecks.fraction("adaptiveThreshold", threshold, 0, 1);
            return this;
        }

        /**
         * Largest MSLAB chunk; 4 KiB to 64 MiB, default 2 MiB. A chunk is also at most a quarter of the
         * active segment, so small MemStores use smaller chunks.
         */
        public Builder mslabChunkSize(int bytes) {
            mslabChunkSize = (int) OptionChecks.range("mslabChunkSize", bytes, 4096, 64 << 20);
            return this;
        }

        /**
         * Whether compacting policies copy cell data into pooled chunks (MSLAB), default true: a
         * segment's memory then goes back to the pool at once instead of as many small dead objects.
         */
        public Builder mslab(boolean enabled) {
            mslab = enabled;
            return this;
        }

        /**
         * Where the MemStore keeps cells and indices, default ON_HEAP. OFF_HEAP needs the
         * engine-offheap module on the class path and keeps every cell in chunks, so it requires
         * {@code mslab} (the default).
         */
        public Builder memoryLayout(MemoryLayout layout) {
            memoryLayout = Objects.requireNonNull(layout, "memoryLayout");
            return this;
        }

        /**
         * Most bytes of off-heap chunks the OFF_HEAP layout may hold; 0 (default: four times
         * {@code memstoreSize}) or 1 MiB to 1 TiB, and at least three times {@code memstoreSize}. Writers
         * that find the pool exhausted wait for a flush to return chunks; compactions in memory give up.
         */
        public Builder offHeapLimit(long bytes) {
            offHeapLimit = bytes == 0 ? 0 : OptionChecks.range("offHeapLimit", bytes, 1L << 20, 1L << 40);
            return this;
        }

        /** Records a trace to {@code file} from open until close ({@link Engine#startTrace}); null for none. */
        public Builder trace(Path file, TraceOptions options) {
            traceFile = file;
            traceOptions = Objects.requireNonNull(options, "traceOptions");
            return this;
        }

        /** @throws IllegalArgumentException if options that are valid one by one do not fit together */
        public EngineOptions build() {
            if (compactionOptions instanceof FlsmOptions f
                    && f.topLevelBits() - (numLevels - 1) * f.bitDecrement() < 1) {
                throw new IllegalArgumentException("FLSM guard bits: level " + (numLevels - 1) + " would need "
                        + (f.topLevelBits() - (numLevels - 1) * f.bitDecrement()) + " hash bits; topLevelBits ("
                        + f.topLevelBits() + ") - (numLevels - 1) (" + (numLevels - 1) + ") * bitDecrement ("
                        + f.bitDecrement() + ") must be at least 1");
            }
            if (compactionOptions instanceof TriadOptions t && t.disk() && t.l0MaxTables() > l0StopTrigger) {
                throw new IllegalArgumentException("TRIAD l0MaxTables (" + t.l0MaxTables() + ") exceeds the L0 stop"
                        + " trigger (" + l0StopTrigger + "): writers would stop behind a deferred L0 compaction");
            }
            OptionChecks.memoryLayout(memoryLayout, mslab, maxValueLengthSet ? maxValueLength : -1, offHeapLimit,
                    memstoreSize);
            return new EngineOptions(this);
        }

        /** A builder with the same settings (every field is an immutable value, so a shallow copy is one). */
        Builder copy() {
            try {
                return (Builder) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
