package io.bellows.engine.internal.table;

import io.bellows.engine.internal.util.Coding;

/**
 * Where a block lies in a table file: the offset of its first byte and the length of its contents,
 * not counting the 5-byte trailer that follows them.
 */
record BlockHandle(long offset, int size) {
    /** Longest varint form: a 10-byte offset and a 5-byte size. */
    static final int MAX_VARINT_LENGTH = 15;

    /** Offset of the byte after the block's trailer. */
    long end() {
        return offset + size + TableFormat.BLOCK_TRAILER_LENGTH;
    }

    /** Writes the varint form (index block values); returns the offset after it. */
    int encodeVarint(byte[] b, int off) {
        return encodeVarint(offset, size, b, off);
    }

    /** The varint form of the handle (offset, size), without building a BlockHandle. */
    static int encodeVarint(long offset, int size, byte[] b, int off) {
        off = Coding.putVarLong(b, off, offset);
        return Coding.putVarInt(b, off, size);
    }

    /**
     * Decodes the varint form, which must fill {@code b[off, off+len)} exactly.
     *
     * @throws IllegalStateException if it does not
     */
    static BlockHandle decodeVarint(byte[] b, int off, int len) {
        int[] pos = {off};
        long offset = Coding.getVarLong(b, pos, off + len);
        long size = Coding.getVarLong(b, pos, off + len);
        if (pos[0] != off + len || offset < 0 || size > TableFormat.MAX_BLOCK_LENGTH) {
            throw new IllegalStateException("malformed block handle");
        }
        return new BlockHandle(offset, (int) size);
    }

    /** Writes the fixed 12-byte form (footer): offset u64 LE, size u32 LE. */
    void encodeFixed(byte[] b, int off) {
        Coding.putLong(b, off, offset);
        Coding.putInt(b, off + 8, size);
    }

    static BlockHandle decodeFixed(byte[] b, int off) {
        return new BlockHandle(Coding.getLong(b, off), Coding.getInt(b, off + 8));
    }
}
