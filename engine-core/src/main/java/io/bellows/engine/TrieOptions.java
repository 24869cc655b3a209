package io.bellows.engine;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The options of {@link CompactionStyle#LSM_TRIE} (a hash trie of containers holding piles of
 * HTables); immutable, made with {@link #builder()}. LSM_TRIE ignores the engine-wide level options
 * of {@link EngineOptions}. docs/tuning.md explains each knob.
 */
public final class TrieOptions implements CompactionOptions {
    private static final TrieOptions DEFAULTS = new Builder().build();

    private final int depth;
    private final int pileTrigger;
    private final int pileSlowdown;
    private final int pileStop;
    private final int tableBuckets;
    /** False: an existing store keeps the count it was created with; a new one takes tableBuckets. */
    private final boolean tableBucketsSet;
    private final int bloomBitsPerKey;
    private final long filterCacheSize;
    private final double gcGarbageRatio;
    /** Null: a new store draws a random seed. */
    private final Long hashSeed;

    private TrieOptions(Builder b) {
        depth = b.depth;
        pileTrigger = b.pileTrigger;
        pileSlowdown = b.pileSlowdown;
        pileStop = b.pileStop;
        tableBuckets = b.tableBuckets;
        tableBucketsSet = b.tableBucketsSet;
        bloomBitsPerKey = b.bloomBitsPerKey;
        filterCacheSize = b.filterCacheSize;
        gcGarbageRatio = b.gcGarbageRatio;
        hashSeed = b.hashSeed;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default LSM_TRIE options. */
    public static TrieOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.depth = depth;
        b.pileTrigger = pileTrigger;
        b.pileSlowdown = pileSlowdown;
        b.pileStop = pileStop;
        b.tableBuckets = tableBuckets;
        b.tableBucketsSet = tableBucketsSet;
        b.bloomBitsPerKey = bloomBitsPerKey;
        b.filterCacheSize = filterCacheSize;
        b.gcGarbageRatio = gcGarbageRatio;
        b.hashSeed = hashSeed;
        return b;
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.LSM_TRIE;
    }

    /** Number of trie levels (the root is level 0, the last level is garbage-collected). */
    public int depth() {
        return depth;
    }

    /** Pile size (in full HTables) at which a container above the last level is compacted. */
    public int pileTrigger() {
        return pileTrigger;
    }

    /** Tables in the root pile at which writers are slowed down. */
    public int pileSlowdown() {
        return pileSlowdown;
    }

    /** Tables in the root pile at which writers stop until compaction catches up. */
    public int pileStop() {
        return pileStop;
    }

    /**
     * 4 KiB buckets of a full HTable; a table holding less has this count halved as often as it fits. A
     * new store takes it; an existing one keeps the count it was created with unless this was set
     * ({@link #tableBucketsSet}), when a different count refuses the open.
     */
    public int tableBuckets() {
        return tableBuckets;
    }

    /** Whether {@link Builder#tableBuckets} was called: the store must then have been created with it. */
    public boolean tableBucketsSet() {
        return tableBucketsSet;
    }

    /** Bits per key of the per-bucket bloom filters. */
    public int bloomBitsPerKey() {
        return bloomBitsPerKey;
    }

    /** Bytes of BloomCluster pages kept in memory. */
    public long filterCacheSize() {
        return filterCacheSize;
    }

    /** Sampled garbage ratio above which a last-level container is garbage-collected. */
    public double gcGarbageRatio() {
        return gcGarbageRatio;
    }

    /**
     * The hash seed a new store records in its manifest; empty (the default) draws a random one. An
     * existing store always keeps the seed it was created with.
     */
    public OptionalLong hashSeed() {
        return hashSeed == null ? OptionalLong.empty() : OptionalLong.of(hashSeed);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrieOptions t && depth == t.depth && pileTrigger == t.pileTrigger
                && pileSlowdown == t.pileSlowdown && pileStop == t.pileStop && tableBuckets == t.tableBuckets
                && tableBucketsSet == t.tableBucketsSet
                && bloomBitsPerKey == t.bloomBitsPerKey && filterCacheSize == t.filterCacheSize
                && Double.compare(gcGarbageRatio, t.gcGarbageRatio) == 0 && Objects.equals(hashSeed, t.hashSeed);
    }

    @Override
    public int hashCode() {
        int h = depth;
        h = 31 * h + pileTrigger;
        h = 31 * h + pileSlowdown;
        h = 31 * h + pileStop;
        h = 31 * h + tableBuckets;
        h = 31 * h + Boolean.hashCode(tableBucketsSet);
        h = 31 * h + bloomBitsPerKey;
        h = 31 * h + Long.hashCode(filterCacheSize);
        h = 31 * h + Double.hashCode(gcGarbageRatio);
        return 31 * h + Objects.hashCode(hashSeed);
    }

    @Override
    public String toString() {
        return "TrieOptions{depth=" + depth + ", pileLimits=" + pileTrigger + "/" + pileSlowdown + "/" + pileStop
                + ", tableBuckets=" + tableBuckets + (tableBucketsSet ? "" : " (or the store's)")
                + ", bloomBitsPerKey=" + bloomBitsPerKey + ", filterCacheSize="
                + filterCacheSize + ", gcGarbageRatio=" + gcGarbageRatio + ", hashSeed="
                + (hashSeed == null ? "random" : hashSeed.toString()) + "}";
    }

    /** Builder of {@link TrieOptions}; each setter validates its argument. */
    public static final class Builder {
        private int depth = 5;
        private int pileTrigger = 8;
        private int pileSlowdown = 14;
        private int pileStop = 20;
        private int tableBuckets = 8192;
        private boolean tableBucketsSet;
        private int bloomBitsPerKey = 16;
        private long filterCacheSize = 256L << 20;
        private double gcGarbageRatio = 0.3;
        private Long hashSeed;

        private Builder() {}

        /**
         * Trie levels; 2 to 8 (3 hash bits each), default 5 (the paper's). The root takes flushes and
         * the last level is garbage-collected, so there are at least two. Fixed when the store is
         * created.
         */
        public Builder depth(int levels) {
            depth = (int) OptionChecks.range("TrieOptions.depth", levels, 2, 8);
            return this;
        }

        /**
         * Pile limits: full HTables' worth of data in a container that start its compaction (default 8,
         * the fan-out), and root-pile table counts that slow writers down (default 14) and stop them
         * (default 20, the authors' code); 2 to 1000, compaction &lt;= slowdown &lt;= stop.
         */
        public Builder pileLimits(int compaction, int slowdown, int stop) {
            OptionChecks.range("TrieOptions.pileTrigger", compaction, 2, 1000);
            OptionChecks.range("TrieOptions.pileSlowdown", slowdown, 2, 1000);
            OptionChecks.range("TrieOptions.pileStop", stop, 2, 1000);
            if (compaction > slowdown || slowdown > stop) {
                throw new IllegalArgumentException("trie pile limits must satisfy compaction (" + compaction
                        + ") <= slowdown (" + slowdown + ") <= stop (" + stop + ")");
            }
            pileTrigger = compaction;
            pileSlowdown = slowdown;
            pileStop = stop;
            return this;
        }

        /**
         * 4 KiB buckets of a full HTable; 4 to 65000 (16-bit bucket ids), default 8192 (32 MiB tables, the
         * paper's). A table holding less has {@code buckets / 2^k} of them, the fewest that hold its data (while
         * the division is exact, so a power of two lets tables shrink to one bucket). Compactions read and
         * write tables a 1 MiB balancing window at a time, so the size costs a compaction about a window per
         * table it reads or writes (a container that receives more than its inputs promised collects its
         * tables whole); a flush collects each table before writing it. Fixed when the store is created:
         * opening an existing store with another count is refused, and options that never set it open a
         * store with the count it was created with.
         */
        public Builder tableBuckets(int buckets) {
            tableBuckets = (int) OptionChecks.range("TrieOptions.tableBuckets", buckets, 4, 65000);
            tableBucketsSet = true;
            return this;
        }

        /** Bloom bits per key of each bucket's filter; 1 to 64, default 16 (the paper's). */
        public Builder bloomBitsPerKey(int bits) {
            bloomBitsPerKey = (int) OptionChecks.range("TrieOptions.bloomBitsPerKey", bits, 1, 64);
            return this;
        }

        /**
         * Memory for cached BloomCluster pages; 0 (none) to 1 TiB, default 256 MiB: the clusters a lookup
         * reads take about 4 bytes per key at 16 bits, so this holds them for about 64M keys, as LEVELED
         * holds every SSTable's filter in memory (a 20M-key store with 32 MiB read 0.63 cluster pages per get).
         */
        public Builder filterCacheSize(long bytes) {
            filterCacheSize = OptionChecks.range("TrieOptions.filterCacheSize", bytes, 0, 1L << 40);
            return this;
        }

        /** Garbage ratio that triggers last-level garbage collection; 0.05 to 0.95, default 0.3. */
        public Builder gcGarbageRatio(double ratio) {
            if (!(ratio >= 0.05 && ratio <= 0.95)) {
                throw new IllegalArgumentException("TrieOptions.gcGarbageRatio must be between 0.05 and 0.95, got " + ratio);
            }
            gcGarbageRatio = ratio;
            return this;
        }

        /**
         * Hash seed recorded by a new store (default: random). An existing store keeps its own: opening
         * it with a different explicit seed is refused, since every key's place depends on it.
         */
        public Builder hashSeed(long seed) {
            hashSeed = seed;
            return this;
        }

        /** The options set so far, checked against each other. */
        public TrieOptions build() {
            return new TrieOptions(this);
        }
    }
}
