package io.bellows.engine;

/**
 * How an engine records a trace of its operations ({@link Engine#startTrace}, or from open with
 * {@link EngineOptions.Builder#trace}); immutable, built with {@link #builder()}. A trace holds every
 * call that returned normally: kind, key, value length (and the value if {@link #values()}), the time
 * it started and the thread that made it. bellows-bench's {@code replay} workload replays it against any
 * configuration (docs/formats/trace.md, docs/benchmarks.md).
 */
public final class TraceOptions {
    private static final TraceOptions DEFAULTS = builder().build();

    private final boolean values;
    private final long maxFileSize;

    private TraceOptions(Builder b) {
        this.values = b.values;
        this.maxFileSize = b.maxFileSize;
    }

    /** Value lengths only, at most 64 GiB of trace (RocksDB's default limit). */
    public static TraceOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the trace holds the bytes of each value written, not only its length. */
    public boolean values() {
        return values;
    }

    /** The size at which the trace stops recording (what it holds stays readable). */
    public long maxFileSize() {
        return maxFileSize;
    }

    @Override
    public String toString() {
        return "TraceOptions{values=" + values + ", maxFileSize=" + maxFileSize + "}";
    }

    /** Builder of {@link TraceOptions}. */
    public static final class Builder {
        private boolean values;
        private long maxFileSize = 64L << 30;

        private Builder() {}

        /**
         * Whether to record the bytes of every value written (default false: lengths only, and a replay
         * writes values of those lengths). Costs trace size and time in proportion to the values.
         */
        public Builder values(boolean record) {
            values = record;
            return this;
        }

        /**
         * The trace stops recording once its file would grow past this size; 1 MiB to 1 PiB, default
         * 64 GiB. The records written until then stay readable.
         */
        public Builder maxFileSize(long bytes) {
            maxFileSize = OptionChecks.range("maxFileSize", bytes, 1L << 20, 1L << 50);
            return this;
        }

        public TraceOptions build() {
            return new TraceOptions(this);
        }
    }
}
