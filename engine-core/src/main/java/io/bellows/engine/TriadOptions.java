package io.bellows.engine;

/**
 * The options of {@link CompactionStyle#TRIAD} (paper 004); immutable, made with {@link #builder()}.
 * Below L0 TRIAD is leveled ({@link Builder#dynamicLevelBytes}; tables go down round-robin,
 * {@link CompactionPriority#ROUND_ROBIN}, as in the RocksDB TRIAD was measured on) and uses the
 * engine-wide level options of {@link EngineOptions}
 * ({@code numLevels}, {@code l0Triggers}, {@code maxBytesForLevelBase}, {@code levelSizeMultiplier},
 * {@code targetFileSize}). Each technique can be switched off on its own, so that its share of the
 * gain can be measured (the paper's Figures 10 and 11); all three (TRIAD-MEM, TRIAD-DISK, TRIAD-LOG) are on
 * by default, with the paper's values (§5.1). docs/tuning.md says how to set them.
 */
public final class TriadOptions implements CompactionOptions {
    private static final TriadOptions DEFAULTS = new Builder().build();

    private final boolean disk;
    private final double overlapRatioThreshold;
    private final int l0MaxTables;
    private final boolean mem;
    private final double hotFraction;
    private final int flushThreshold;
    private final boolean log;
    private final boolean dynamicLevelBytes;

    private TriadOptions(Builder b) {
        log = b.log;
        dynamicLevelBytes = b.dynamicLevelBytes;
        mem = b.mem;
        hotFraction = b.hotFraction;
        flushThreshold = b.flushThreshold;
        disk = b.disk;
        overlapRatioThreshold = b.overlapRatioThreshold;
        l0MaxTables = b.l0MaxTables;
    }

    /** A builder starting from the defaults (all three techniques on). */
    public static Builder builder() {
        return new Builder();
    }

    /** The default TRIAD options: TRIAD-MEM, TRIAD-DISK and TRIAD-LOG on, the paper's thresholds. */
    public static TriadOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.disk = disk;
        b.overlapRatioThreshold = overlapRatioThreshold;
        b.l0MaxTables = l0MaxTables;
        b.mem = mem;
        b.hotFraction = hotFraction;
        b.flushThreshold = flushThreshold;
        b.log = log;
        b.dynamicLevelBytes = dynamicLevelBytes;
        return b;
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.TRIAD;
    }

    /** TRIAD-DISK: whether L0→L1 compaction waits for enough key overlap. */
    public boolean disk() {
        return disk;
    }

    /** TRIAD-DISK's OVERLAP_RATIO_TH: below it an L0→L1 compaction is deferred. */
    public double overlapRatioThreshold() {
        return overlapRatioThreshold;
    }

    /** TRIAD-DISK's MAX_FILES_L0: with this many L0 tables the compaction runs whatever the overlap. */
    public int l0MaxTables() {
        return l0MaxTables;
    }

    /** TRIAD-MEM: whether a flush keeps the hottest keys in memory. */
    public boolean mem() {
        return mem;
    }

    /** TRIAD-MEM's K as a fraction of the MemStore's entries. */
    public double hotFraction() {
        return hotFraction;
    }

    /** TRIAD-MEM's FLUSH_TH, in cold keys: with fewer, a flush writes nothing and keeps everything in memory. */
    public int flushThreshold() {
        return flushThreshold;
    }

    /** TRIAD-LOG: whether a flush turns the logs holding the MemStore into a CL-table instead of copying them. */
    public boolean log() {
        return log;
    }

    /** Whether the leveled part sizes its targets from the last level's size, as {@link LeveledOptions#dynamicLevelBytes()}. */
    public boolean dynamicLevelBytes() {
        return dynamicLevelBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TriadOptions t && disk == t.disk
                && Double.compare(overlapRatioThreshold, t.overlapRatioThreshold) == 0 && l0MaxTables == t.l0MaxTables
                && mem == t.mem && Double.compare(hotFraction, t.hotFraction) == 0 && flushThreshold == t.flushThreshold
                && log == t.log && dynamicLevelBytes == t.dynamicLevelBytes;
    }

    @Override
    public int hashCode() {
        int h = Boolean.hashCode(disk);
        h = 31 * h + Double.hashCode(overlapRatioThreshold);
        h = 31 * h + l0MaxTables;
        h = 31 * h + Boolean.hashCode(mem);
        h = 31 * h + Double.hashCode(hotFraction);
        h = 31 * h + flushThreshold;
        h = 31 * h + Boolean.hashCode(log);
        return 31 * h + Boolean.hashCode(dynamicLevelBytes);
    }

    @Override
    public String toString() {
        return "TriadOptions{mem=" + mem + ", hotFraction=" + hotFraction + ", flushThreshold=" + flushThreshold
                + ", disk=" + disk + ", overlapRatioThreshold=" + overlapRatioThreshold + ", l0MaxTables=" + l0MaxTables
                + ", log=" + log + ", dynamicLevelBytes=" + dynamicLevelBytes + "}";
    }

    /** Builder of {@link TriadOptions}; each setter validates its argument. */
    public static final class Builder {
        private boolean disk = true;
        private double overlapRatioThreshold = 0.4;
        private int l0MaxTables = 6;
        private boolean mem = true;
        private double hotFraction = 0.01;
        private int flushThreshold = 100;
        private boolean log = true;
        private boolean dynamicLevelBytes = true;

        private Builder() {}

        /**
         * TRIAD-LOG (paper §4.3): a flush writes no copy of the data. The WAL files holding the flushed
         * MemStore become a CL-table, an L0 table whose sorted index (docs/formats/cl-table.md) points at each
         * version's record in the logs; the logs live until the last CL-table using them is compacted. Versions
         * no forced log holds (unlogged writes) are copied into the index. Default on.
         */
        public Builder log(boolean enabled) {
            log = enabled;
            return this;
        }

        /**
         * TRIAD-MEM (paper §4.1, Algorithms 1 and 2): at a flush the top K keys by update count since the
         * last flush stay in memory (all the versions the flush would have written of them, with their
         * sequences) and are logged again in the new WAL; only the other keys are written. A key written
         * once is never hot. Default on.
         */
        public Builder mem(boolean enabled) {
            mem = enabled;
            return this;
        }

        /** K as a fraction of the MemStore's entries at the flush, 0 (exclusive) to 0.5; default 0.01 (§5.1). */
        public Builder hotFraction(double fraction) {
            if (!(fraction > 0 && fraction <= 0.5)) {
                throw new IllegalArgumentException("TriadOptions.hotFraction must be in (0, 0.5], got " + fraction);
            }
            hotFraction = fraction;
            return this;
        }

        /**
         * FLUSH_TH in cold keys: a flush that would write fewer keys than this writes none and keeps
         * everything in memory, re-logged (the versions a flush would write), as long as that is at most half the
         * MemStore; 0 to 1,000,000, default 100 (the authors' code; the paper gives no value). 0 turns it off.
         */
        public Builder flushThreshold(int coldKeys) {
            flushThreshold = (int) OptionChecks.range("TriadOptions.flushThreshold", coldKeys, 0, 1_000_000);
            return this;
        }

        /**
         * TRIAD-DISK (paper §4.2): every L0 and L1 table carries a HyperLogLog sketch of its keys, and an
         * L0→L1 compaction picked by the leveled rules is deferred while the overlap ratio of L0 and the
         * L1 tables it overlaps, 1 − unique keys / Σ keys, is below {@link #overlapRatioThreshold}, until
         * L0 holds {@link #l0MaxTables}. Default on.
         */
        public Builder disk(boolean enabled) {
            disk = enabled;
            return this;
        }

        /** OVERLAP_RATIO_TH, 0 (never defer) to 1; default 0.4 (the paper's). */
        public Builder overlapRatioThreshold(double ratio) {
            if (!(ratio >= 0 && ratio <= 1)) {
                throw new IllegalArgumentException("TriadOptions.overlapRatioThreshold must be in [0, 1], got " + ratio);
            }
            overlapRatioThreshold = ratio;
            return this;
        }

        /**
         * MAX_FILES_L0: L0 tables at which a deferred compaction is forced; 1 to 1000, default 6 (the
         * paper's). It must not exceed the engine's L0 stop trigger (checked by
         * {@link EngineOptions.Builder#build()}), or writers could stop behind a deferred compaction.
         */
        public Builder l0MaxTables(int tables) {
            l0MaxTables = (int) OptionChecks.range("TriadOptions.l0MaxTables", tables, 1, 1000);
            return this;
        }

        /**
         * The leveled part's level targets, as {@link LeveledOptions.Builder#dynamicLevelBytes}; default
         * true. With it on, TRIAD-DISK compares L0 with the tables of the base level it compacts into.
         */
        public Builder dynamicLevelBytes(boolean enabled) {
            dynamicLevelBytes = enabled;
            return this;
        }

        /** The options set so far. */
        public TriadOptions build() {
            return new TriadOptions(this);
        }
    }
}
