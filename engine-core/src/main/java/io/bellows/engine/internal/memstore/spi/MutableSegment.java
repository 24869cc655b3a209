package io.bellows.engine.internal.memstore.spi;

/** The segment that takes writes (the active segment); readers may read it while it is written. */
public interface MutableSegment extends Segment {
    /**
     * Adds one entry. REQUIRES: one adding thread at a time; {@code value} null exactly for a
     * tombstone. The segment copies what it keeps: the caller may reuse the arrays afterwards.
     */
    default void add(byte[] key, long seq, int kind, byte[] value) {
        add(key, 0, key.length, value, 0, value == null ? 0 : value.length, seq, kind);
    }

    /**
     * Adds one entry whose key and value are slices of the caller's buffers ({@code valueBuf} null exactly
     * for a tombstone), copying them once into the segment's memory. Same contract as
     * {@link #add(byte[], long, int, byte[])}.
     */
    void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq, int kind);
}
