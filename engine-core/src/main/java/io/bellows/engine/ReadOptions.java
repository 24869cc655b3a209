package io.bellows.engine;

import java.util.Arrays;
import java.util.Objects;

/**
 * Per-read options; immutable, built fluently: {@code ReadOptions.at(snapshot).from(lo).to(hi)}.
 * Bounds apply to cursors: {@code from} is inclusive, {@code to} exclusive; null means unbounded.
 */
public final class ReadOptions {
    private static final ReadOptions DEFAULTS = new ReadOptions(null, null, null, true);

    private final Snapshot snapshot;
    private final byte[] lowerBound;
    private final byte[] upperBound;
    private final boolean fillCache;

    private ReadOptions(Snapshot snapshot, byte[] lowerBound, byte[] upperBound, boolean fillCache) {
        this.snapshot = snapshot;
        this.lowerBound = lowerBound;
        this.upperBound = upperBound;
        this.fillCache = fillCache;
    }

    /** Reads the latest state, unbounded, filling the block cache. */
    public static ReadOptions defaults() {
        return DEFAULTS;
    }

    /** Reads as of {@code snapshot} (not null: {@link #defaults()} reads the latest state). */
    public static ReadOptions at(Snapshot snapshot) {
        return new ReadOptions(Objects.requireNonNull(snapshot, "snapshot"), null, null, true);
    }

    /** These options reading as of {@code s}, or the latest state when {@code s} is null. */
    public ReadOptions snapshot(Snapshot s) {
        return new ReadOptions(s, lowerBound, upperBound, fillCache);
    }

    /** Inclusive lower bound of a cursor. */
    public ReadOptions from(byte[] key) {
        return new ReadOptions(snapshot, key == null ? null : key.clone(), upperBound, fillCache);
    }

    /** Exclusive upper bound of a cursor. */
    public ReadOptions to(byte[] key) {
        return new ReadOptions(snapshot, lowerBound, key == null ? null : key.clone(), fillCache);
    }

    /** Whether blocks read for this operation are added to the block cache (default true). */
    public ReadOptions fillCache(boolean fill) {
        return new ReadOptions(snapshot, lowerBound, upperBound, fill);
    }

    /** The snapshot reads see, or null for the latest write at the time of each read. */
    public Snapshot snapshot() {
        return snapshot;
    }

    /** The first key a cursor may return (inclusive), or null for none. */
    public byte[] lowerBound() {
        return lowerBound == null ? null : lowerBound.clone();
    }

    /** The key a cursor stops before (exclusive), or null for none. */
    public byte[] upperBound() {
        return upperBound == null ? null : upperBound.clone();
    }

    /** Whether blocks these reads load from files enter the block cache. */
    public boolean fillCache() {
        return fillCache;
    }

    @Override
    public String toString() {
        return "ReadOptions{snapshot=" + (snapshot == null ? "latest" : snapshot.sequence())
                + ", from=" + Arrays.toString(lowerBound) + ", to=" + Arrays.toString(upperBound)
                + ", fillCache=" + fillCache + "}";
    }
}
