package io.bellows.engine.internal.table;

import java.nio.file.Path;

/**
 * The arrays a table iterator that does not fill the cache (a compaction input, a scan told not to)
 * reads its data blocks into. Such an iterator's blocks are never shared, and views of their entries
 * are valid only until it moves, so the next block may take the arrays of the last one: a compaction
 * then reads its inputs without allocating as many bytes as it reads.
 *
 * <p>One iterator's, one thread at a time.
 */
final class BlockBuffers {
    private byte[] stored = new byte[0];
    private byte[] raw = new byte[0];
    /** Length of the contents {@link BlockCodec#decompress} last decoded into the raw array. */
    int rawLength;
    private Block block;

    /** An array of at least {@code length} bytes for a block as stored (contents and trailer). */
    byte[] stored(int length) {
        if (stored.length < length) {
            stored = new byte[grown(length)];
        }
        return stored;
    }

    /** An array of at least {@code length} bytes for a compressed block's raw contents. */
    byte[] raw(int length) {
        if (raw.length < length) {
            raw = new byte[grown(length)];
        }
        return raw;
    }

    int rawLength() {
        return rawLength;
    }

    /**
     * The block over {@code data[0, length)}: one object re-pointed from block to block, as the arrays
     * are, since nothing outside the iterator ever holds it (it never enters the cache).
     */
    Block block(byte[] data, int length, Path path, long fileOffset) {
        if (block == null) {
            block = new Block(data, length, path, fileOffset);
        } else {
            block.reset(data, length, path, fileOffset);
        }
        return block;
    }

    /** A quarter more than asked, so that blocks a little larger than the last do not each reallocate. */
    private static int grown(int need) {
        return (int) Math.min(Integer.MAX_VALUE - 8, need + (long) need / 4);
    }
}
