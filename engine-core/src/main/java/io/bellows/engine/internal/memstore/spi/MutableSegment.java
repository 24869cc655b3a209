package io.bellows.engine.internal.memstore.spi;

/** The segment that takes writes (the active segment); readers may read it while it is written. */
public interface MutableSegment extends Segment {
    /**
     * Adds one entry. REQUIRES: one adding thread at a time; {@code value} null exactly for a
     * tombstone. The segment copies what it keeps: the caller may reuse the arrays afterwards.
     */
    void add(byte[] key, long seq, int kind, byte[] value);
}
