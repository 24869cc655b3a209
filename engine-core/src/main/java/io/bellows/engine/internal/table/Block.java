package io.bellows.engine.internal.table;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;

/**
 * A checksum-verified data or index block (format: {@link BlockBuilder}). A block built for the
 * {@link BlockCache} or a table's index is never modified and is shared freely between threads; only the
 * one block a {@link BlockBuffers} owns is re-pointed at the next block its iterator reads ({@link #reset}),
 * and that one is never shared. The restart array is validated whenever the block is set; entries are
 * validated as iterators decode them.
 */
final class Block {
    /** Bytes a cached block costs beyond its array: this object, its array header, the cache entry. */
    private static final int OVERHEAD = 96;

    Path path;
    /** Offset of the block in its file, for error messages. */
    long fileOffset;
    byte[] data;
    /** End of the entries and start of the restart array. */
    int restartsOffset;
    int numRestarts;

    /** Parses the block contents {@code data[0, length)}; bytes of {@code data} past them are ignored. */
    Block(byte[] data, int length, Path path, long fileOffset) {
        reset(data, length, path, fileOffset);
    }

    /** Points this block at other contents, parsed as by the constructor. Only for a {@link BlockBuffers}' own block. */
    void reset(byte[] data, int length, Path path, long fileOffset) {
        this.path = path;
        this.fileOffset = fileOffset;
        this.data = data;
        if (length < 8) {
            throw new CorruptionException(path, fileOffset, "block of " + length + " bytes is too short");
        }
        int n = Coding.getInt(data, length - 4);
        if (n < 1 || n > (length - 4) / 4) {
            throw new CorruptionException(path, fileOffset + length - 4, "bad restart count " + n);
        }
        restartsOffset = length - 4 - 4 * n;
        numRestarts = n;
        if (restartsOffset == 0) {
            throw new CorruptionException(path, fileOffset, "block has no entries");
        }
        int previous = -1;
        for (int i = 0; i < n; i++) {
            int r = restart(i);
            if ((i == 0 && r != 0) || r <= previous || r >= restartsOffset) {
                throw new CorruptionException(path, fileOffset + restartsOffset + 4L * i, "bad restart point " + r);
            }
            previous = r;
        }
    }

    int restart(int i) {
        return Coding.getInt(data, restartsOffset + 4 * i);
    }

    BlockIterator iterator() {
        return new BlockIterator(this);
    }

    /** What the block costs in the cache. */
    int weight() {
        return data.length + OVERHEAD;
    }

    CorruptionException corruption(int at, String message) {
        return new CorruptionException(path, fileOffset + at, message);
    }
}
