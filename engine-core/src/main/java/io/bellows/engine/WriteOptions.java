package io.bellows.engine;

import java.util.Objects;

/** Per-write options; immutable. */
public final class WriteOptions {
    private static final WriteOptions SYNC = new WriteOptions(Durability.SYNC);
    private static final WriteOptions ASYNC = new WriteOptions(Durability.ASYNC);
    private static final WriteOptions NONE = new WriteOptions(Durability.NONE);

    private final Durability durability;

    private WriteOptions(Durability durability) {
        this.durability = durability;
    }

    /** ASYNC durability: like RocksDB's default {@code sync=false}. */
    public static WriteOptions defaults() {
        return ASYNC;
    }

    /** {@link Durability#SYNC}: forced to the device before the call returns. */
    public static WriteOptions sync() {
        return SYNC;
    }

    /** {@link Durability#ASYNC}: in the WAL, forced within walSyncInterval (the default). */
    public static WriteOptions async() {
        return ASYNC;
    }

    /** {@link Durability#NONE}: no WAL; durable once flushed. */
    public static WriteOptions noWal() {
        return NONE;
    }

    /** The options of {@code durability}. */
    public static WriteOptions of(Durability durability) {
        switch (Objects.requireNonNull(durability, "durability")) {
            case SYNC:
                return SYNC;
            case ASYNC:
                return ASYNC;
            default:
                return NONE;
        }
    }

    /** What a write with these options survives. */
    public Durability durability() {
        return durability;
    }

    @Override
    public String toString() {
        return "WriteOptions{" + durability + "}";
    }
}
