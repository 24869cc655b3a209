package io.bellows.engine;

/**
 * The options of {@link CompactionStyle#FLSM} (PebblesDB's fragmented LSM); immutable, made with
 * {@link #builder()}. FLSM also uses the engine-wide level options of {@link EngineOptions}
 * ({@code numLevels}, {@code l0Triggers}, {@code targetFileSize}); {@link EngineOptions.Builder#build()}
 * checks that the guard bits fit {@code numLevels}. docs/tuning.md gives values by store size.
 */
public final class FlsmOptions implements CompactionOptions {
    private static final FlsmOptions DEFAULTS = new Builder().build();

    private final int topLevelBits;
    private final int bitDecrement;
    private final int maxTablesPerGuard;
    private final long guardMaxBytes;
    private final long guardMinBytes;
    private final int seekCompactionThreshold;
    private final boolean parallelSeeks;

    private FlsmOptions(Builder b) {
        topLevelBits = b.topLevelBits;
        bitDecrement = b.bitDecrement;
        maxTablesPerGuard = b.maxTablesPerGuard;
        guardMaxBytes = b.guardMaxBytes;
        guardMinBytes = b.guardMinBytes;
        seekCompactionThreshold = b.seekCompactionThreshold;
        parallelSeeks = b.parallelSeeks;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default FLSM options (PebblesDB's guard probabilities, scaled as docs/tuning.md says). */
    public static FlsmOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.topLevelBits = topLevelBits;
        b.bitDecrement = bitDecrement;
        b.maxTablesPerGuard = maxTablesPerGuard;
        b.guardMaxBytes = guardMaxBytes;
        b.guardMinBytes = guardMinBytes;
        b.seekCompactionThreshold = seekCompactionThreshold;
        b.parallelSeeks = parallelSeeks;
        return b;
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.FLSM;
    }

    /** Hash bits (lowest, all ones) that make a key a guard at level 0; see {@link Builder#guardBits}. */
    public int topLevelBits() {
        return topLevelBits;
    }

    /** How many fewer bits each deeper level requires. */
    public int bitDecrement() {
        return bitDecrement;
    }

    /** Overlapping tables a guard may hold before it is compacted (max_sstables_per_guard). */
    public int maxTablesPerGuard() {
        return maxTablesPerGuard;
    }

    /** Bytes a level-1 guard may hold before it is compacted; doubles per level. */
    public long guardMaxBytes() {
        return guardMaxBytes;
    }

    /** Bytes under which a guard holding data at a level is retired there after a compaction; 0 = never. */
    public long guardMinBytes() {
        return guardMinBytes;
    }

    /** Consecutive cursor seeks without a write that trigger a seek-based compaction; 0 = off. */
    public int seekCompactionThreshold() {
        return seekCompactionThreshold;
    }

    /** Whether cursor seeks position a last-level guard's tables concurrently. */
    public boolean parallelSeeks() {
        return parallelSeeks;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlsmOptions f && topLevelBits == f.topLevelBits && bitDecrement == f.bitDecrement
                && maxTablesPerGuard == f.maxTablesPerGuard && guardMaxBytes == f.guardMaxBytes
                && guardMinBytes == f.guardMinBytes && seekCompactionThreshold == f.seekCompactionThreshold
                && parallelSeeks == f.parallelSeeks;
    }

    @Override
    public int hashCode() {
        int h = topLevelBits;
        h = 31 * h + bitDecrement;
        h = 31 * h + maxTablesPerGuard;
        h = 31 * h + Long.hashCode(guardMaxBytes);
        h = 31 * h + Long.hashCode(guardMinBytes);
        h = 31 * h + seekCompactionThreshold;
        return 31 * h + Boolean.hashCode(parallelSeeks);
    }

    @Override
    public String toString() {
        return "FlsmOptions{guardBits=" + topLevelBits + "/" + bitDecrement + ", maxTablesPerGuard="
                + maxTablesPerGuard + ", guardMaxBytes=" + guardMaxBytes + ", guardMinBytes=" + guardMinBytes
                + ", seekCompactionThreshold=" + seekCompactionThreshold + ", parallelSeeks=" + parallelSeeks + "}";
    }

    /** Builder of {@link FlsmOptions}; each setter validates its argument. */
    public static final class Builder {
        private int topLevelBits = 27;
        private int bitDecrement = 2;
        private int maxTablesPerGuard = 4;
        private long guardMaxBytes = 64L << 20;
        private long guardMinBytes = 256L << 10;
        private int seekCompactionThreshold = 10;
        private boolean parallelSeeks = false;

        private Builder() {}

        /**
         * Guard density (PebblesDB's top_level_bits and bit_decrement): a key is a guard at level i
         * (1 &lt;= i &lt; numLevels) when the lowest {@code topLevelBits - i * bitDecrement} bits of its
         * hash are all ones, so a level-i guard is one in 2^(topLevelBits - i * bitDecrement) distinct
         * keys, and every guard of a level is a guard of each deeper level. Defaults 27 and 2 (the
         * paper's); topLevelBits 1 to 62, bitDecrement 0 to 16, and the deepest level must still
         * require at least one bit (checked by {@link EngineOptions.Builder#build()}, which knows
         * numLevels). docs/tuning.md gives values by store size.
         */
        public Builder guardBits(int topLevelBits, int bitDecrement) {
            this.topLevelBits = (int) OptionChecks.range("FlsmOptions.topLevelBits", topLevelBits, 1, 62);
            this.bitDecrement = (int) OptionChecks.range("FlsmOptions.bitDecrement", bitDecrement, 0, 16);
            return this;
        }

        /**
         * max_sstables_per_guard: a guard whose tables overlap this many deep at some key is merged and
         * pushed to the next level (at the last level: merged in place); 1 to 1000, default 4. Lower
         * reads faster, higher writes less.
         */
        public Builder maxTablesPerGuard(int tables) {
            maxTablesPerGuard = (int) OptionChecks.range("FlsmOptions.maxTablesPerGuard", tables, 1, 1000);
            return this;
        }

        /**
         * Byte cap of a level-1 guard, doubling at each deeper level (the last level has none): a guard
         * over it is pushed down even with few tables; 64 KiB to 1 TiB, default 64 MiB.
         */
        public Builder guardMaxBytes(long bytes) {
            guardMaxBytes = OptionChecks.range("FlsmOptions.guardMaxBytes", bytes, 64L << 10, 1L << 40);
            return this;
        }

        /**
         * Guard retirement (paper §3.3, deleting guards when a level's data is spread thinly among them): a
         * compaction that leaves a guard holding some data at its output level, but less than this, retires
         * the guard at that level and the shallower ones, its range joining the preceding guard's (nothing
         * is rewritten). Retired guards come back a level up once the guard holding them there holds twice
         * this for each guard it would then be divided into. It bounds tables by data when guards are
         * denser than the data (a guard in a few keys would otherwise cost a table per guard and level).
         * Tables under this size (or under half the target file size, if that is less) count toward their
         * guard's merge even when they do not overlap. 0 (never retire) to 1 TiB, default 256 KiB.
         */
        public Builder guardMinBytes(long bytes) {
            guardMinBytes = OptionChecks.range("FlsmOptions.guardMinBytes", bytes, 0, 1L << 40);
            return this;
        }

        /**
         * Seek-based compaction: after this many consecutive cursor seeks with no write between them,
         * the guard with the most tables under the last seek key is compacted; 0 (off) to 1,000,000,
         * default 10 (the paper's).
         */
        public Builder seekCompactionThreshold(int seeks) {
            seekCompactionThreshold = (int) OptionChecks.range("FlsmOptions.seekCompactionThreshold", seeks, 0, 1_000_000);
            return this;
        }

        /**
         * Parallel seeks (paper §4.2): a cursor seek positions the tables of a last-level guard on
         * several threads, so the device reads of one seek overlap. Default false: on the reference
         * two-vCPU machine it did not pay off (docs/benchmarks.md); try it where seeks wait on device
         * reads and cores are free.
         */
        public Builder parallelSeeks(boolean enabled) {
            parallelSeeks = enabled;
            return this;
        }

        /** The options set so far, checked against each other. */
        public FlsmOptions build() {
            return new FlsmOptions(this);
        }
    }
}
