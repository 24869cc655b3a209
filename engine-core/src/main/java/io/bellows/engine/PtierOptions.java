package io.bellows.engine;

import java.util.Objects;

/**
 * The options of {@link CompactionStyle#PTIER} (PTierDB's adaptive tiering); immutable, made with
 * {@link #builder()}. PTIER also uses the engine-wide level options of {@link EngineOptions}
 * ({@code numLevels}, {@code l0Triggers}, {@code maxBytesForLevelBase}, {@code levelSizeMultiplier},
 * {@code targetFileSize}). docs/architecture.md ("PTIER") says how each knob maps onto the paper.
 *
 * <p>The key prefix decides where output tables may be cut and which tables are merged or moved; it
 * never affects what a read returns, so it may differ between opens of one store.
 */
public final class PtierOptions implements CompactionOptions {
    /** Default prefix: the first 15 bytes of a key (docs/benchmarks.md, "PTIER prefix length"). */
    public static final int DEFAULT_PREFIX_LENGTH = 15;

    private static final PtierOptions DEFAULTS = new Builder().build();

    /**
     * Where a key's prefix ends, as RocksDB's {@code prefix_extractor}: the number of leading bytes of
     * {@code key} that are its prefix (0 to {@code key.length}). Must be consistent with key order: keys
     * with one prefix are contiguous in byte order, which holds for any "first bytes up to a delimiter"
     * rule. Called during compactions on background threads; must be thread-safe and should not allocate.
     * {@code key} is valid only during the call (a compaction may pass an array it reuses for the next key
     * of that length): read it, neither keep nor change it.
     */
    @FunctionalInterface
    public interface PrefixExtractor {
        /** How many leading bytes of {@code key} are its prefix (0 to its length). */
        int prefixLength(byte[] key);
    }

    private final int prefixLength;
    private final PrefixExtractor prefixExtractor;
    private final long splitThreshold;
    private final int intraLevelMergeReads;

    private PtierOptions(Builder b) {
        prefixLength = b.prefixLength;
        prefixExtractor = b.prefixExtractor;
        splitThreshold = b.splitThreshold;
        intraLevelMergeReads = b.intraLevelMergeReads;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default PTIER options. */
    public static PtierOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.prefixLength = prefixLength;
        b.prefixExtractor = prefixExtractor;
        b.splitThreshold = splitThreshold;
        b.intraLevelMergeReads = intraLevelMergeReads;
        return b;
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.PTIER;
    }

    /** Bytes of a key that form its prefix when no {@link #prefixExtractor()} is set. */
    public int prefixLength() {
        return prefixLength;
    }

    /** The user's prefix rule, or null for the first {@link #prefixLength()} bytes. */
    public PrefixExtractor prefixExtractor() {
        return prefixExtractor;
    }

    /** T_s of the paper in bytes; 0 means {@link EngineOptions#targetFileSize()}. */
    public long splitThreshold() {
        return splitThreshold;
    }

    /**
     * Gets that probe a last-level table while it overlaps others before an intra-level merge of the
     * tables overlapping it; 0 derives the limit from the table's size as LevelDB's allowed_seeks does.
     */
    public int intraLevelMergeReads() {
        return intraLevelMergeReads;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PtierOptions p && p.prefixLength == prefixLength
                && Objects.equals(p.prefixExtractor, prefixExtractor) && p.splitThreshold == splitThreshold
                && p.intraLevelMergeReads == intraLevelMergeReads;
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefixLength, prefixExtractor, splitThreshold, intraLevelMergeReads);
    }

    @Override
    public String toString() {
        return "PtierOptions{prefix=" + (prefixExtractor != null ? prefixExtractor : prefixLength + " bytes")
                + ", splitThreshold=" + (splitThreshold == 0 ? "targetFileSize" : splitThreshold)
                + ", intraLevelMergeReads=" + (intraLevelMergeReads == 0 ? "by size" : intraLevelMergeReads) + "}";
    }

    /** Builder of {@link PtierOptions}. */
    public static final class Builder {
        private int prefixLength = DEFAULT_PREFIX_LENGTH;
        private PrefixExtractor prefixExtractor;
        private long splitThreshold;
        private int intraLevelMergeReads;

        private Builder() {}

        /** The prefix is the first {@code bytes} bytes of a key (the whole key if shorter); 1 to 1024, default 15. */
        public Builder prefixLength(int bytes) {
            OptionChecks.range("prefixLength", bytes, 1, 1024);
            prefixLength = bytes;
            return this;
        }

        /** A prefix rule of the user's, replacing {@link #prefixLength}; null goes back to it. */
        public Builder prefixExtractor(PrefixExtractor extractor) {
            prefixExtractor = extractor;
            return this;
        }

        /**
         * T_s: an output table is cut only at a prefix change, once it holds this many bytes and at
         * least as many are left to write; 64 KiB to 4 GiB, or 0 (default) for the engine's
         * {@code targetFileSize}.
         */
        public Builder splitThreshold(long bytes) {
            if (bytes != 0) {
                OptionChecks.range("splitThreshold", bytes, 64 << 10, 4L << 30);
            }
            splitThreshold = bytes;
            return this;
        }

        /** Reads before an intra-level merge at the last level; 1 to 10^9, or 0 (default) to derive it from table size. */
        public Builder intraLevelMergeReads(int reads) {
            if (reads != 0) {
                OptionChecks.range("intraLevelMergeReads", reads, 1, 1_000_000_000);
            }
            intraLevelMergeReads = reads;
            return this;
        }

        /** The options set so far, checked against each other. */
        public PtierOptions build() {
            return new PtierOptions(this);
        }
    }
}
