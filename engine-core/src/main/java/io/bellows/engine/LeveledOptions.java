package io.bellows.engine;

/**
 * The options of {@link CompactionStyle#LEVELED}. Leveled compaction has no knobs of its own today:
 * it is tuned by the engine-wide level options of {@link EngineOptions} ({@code maxBytesForLevelBase},
 * {@code levelSizeMultiplier}, {@code numLevels}, {@code l0Triggers}, {@code targetFileSize}), which
 * FLSM uses too. Immutable; {@link #defaults()} is the only instance.
 */
public final class LeveledOptions implements CompactionOptions {
    private static final LeveledOptions DEFAULTS = new LeveledOptions();

    private LeveledOptions() {}

    public static Builder builder() {
        return new Builder();
    }

    public static LeveledOptions defaults() {
        return DEFAULTS;
    }

    /** A builder holding this object's values. */
    public Builder toBuilder() {
        return new Builder();
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.LEVELED;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LeveledOptions;
    }

    @Override
    public int hashCode() {
        return CompactionStyle.LEVELED.name().hashCode();
    }

    @Override
    public String toString() {
        return "LeveledOptions{}";
    }

    /** Builder of {@link LeveledOptions}. */
    public static final class Builder {
        private Builder() {}

        public LeveledOptions build() {
            return DEFAULTS;
        }
    }
}
