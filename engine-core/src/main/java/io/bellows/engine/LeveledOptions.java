package io.bellows.engine;

import java.util.Objects;

/**
 * The options of {@link CompactionStyle#LEVELED}; immutable, made with {@link #builder()}. Leveled
 * compaction is otherwise tuned by the engine-wide level options of {@link EngineOptions}
 * ({@code maxBytesForLevelBase}, {@code levelSizeMultiplier}, {@code numLevels}, {@code l0Triggers},
 * {@code targetFileSize}, {@code pendingCompactionBytesLimits}), which other schemes use too.
 */
public final class LeveledOptions implements CompactionOptions {
    private static final LeveledOptions DEFAULTS = new Builder().build();

    private final boolean dynamicLevelBytes;
    private final CompactionPriority priority;

    private LeveledOptions(Builder b) {
        dynamicLevelBytes = b.dynamicLevelBytes;
        priority = b.priority;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default LEVELED options (dynamic level bytes on, {@link CompactionPriority#MIN_OVERLAPPING_RATIO}). */
    public static LeveledOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        return new Builder().dynamicLevelBytes(dynamicLevelBytes).priority(priority);
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.LEVELED;
    }

    /** Whether level targets follow the last level's size (RocksDB's level_compaction_dynamic_level_bytes). */
    public boolean dynamicLevelBytes() {
        return dynamicLevelBytes;
    }

    /** Which table of a level over its target is compacted next. */
    public CompactionPriority priority() {
        return priority;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LeveledOptions l && dynamicLevelBytes == l.dynamicLevelBytes && priority == l.priority;
    }

    @Override
    public int hashCode() {
        return (31 * CompactionStyle.LEVELED.name().hashCode() + Boolean.hashCode(dynamicLevelBytes)) * 31
                + priority.hashCode();
    }

    @Override
    public String toString() {
        return "LeveledOptions{dynamicLevelBytes=" + dynamicLevelBytes + ", priority=" + priority + "}";
    }

    /** Builder of {@link LeveledOptions}. */
    public static final class Builder {
        private boolean dynamicLevelBytes = true;
        private CompactionPriority priority = CompactionPriority.MIN_OVERLAPPING_RATIO;

        private Builder() {}

        /**
         * Level targets sized from the data (RocksDB's {@code level_compaction_dynamic_level_bytes}, its
         * default since 8.x): the largest level's size is the last level's target and each level above
         * gets a {@code levelSizeMultiplier}-th of the one below; levels whose target would fall below
         * {@code maxBytesForLevelBase} / {@code levelSizeMultiplier} stay empty, and L0 compacts straight into
         * the first level below them (the base level). The last level then holds about
         * multiplier / (multiplier + 1) of the data whatever the store's size. With false, L1's target is
         * {@code maxBytesForLevelBase} and each level's is {@code levelSizeMultiplier} times the one above
         * (LevelDB's static targets), so the last level may hold less than the level above it. Default true.
         * A store may be reopened with the other setting: the levels its data no longer needs drain
         * downwards.
         */
        public Builder dynamicLevelBytes(boolean enabled) {
            dynamicLevelBytes = enabled;
            return this;
        }

        /**
         * Which table of a level over its target is compacted next (RocksDB's {@code compaction_pri}).
         * Default {@link CompactionPriority#MIN_OVERLAPPING_RATIO}, as RocksDB's. A store may be reopened
         * with the other setting.
         */
        public Builder priority(CompactionPriority priority) {
            this.priority = Objects.requireNonNull(priority, "priority");
            return this;
        }

        /** The options set so far. */
        public LeveledOptions build() {
            return new LeveledOptions(this);
        }
    }
}
