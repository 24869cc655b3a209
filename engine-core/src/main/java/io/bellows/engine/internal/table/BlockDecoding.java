package io.bellows.engine.internal.table;

import io.bellows.engine.internal.key.InternalKeys;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The block format's decode path for engine-bench's JMH suite, which cannot reach the
 * package-private {@link Block} and {@link BlockIterator}. Holds one finished data block; each call
 * parses it afresh as a table read does after fetching it. Not used by the engine.
 */
public final class BlockDecoding {
    private static final Path PATH = Path.of("benchmark-block");

    private final byte[] contents;
    private final int length;

    private BlockDecoding(byte[] contents, int length) {
        this.contents = contents;
        this.length = length;
    }

    /** A block of {@code userKeys} (ascending, distinct) as puts of {@code value} at sequence 1. */
    public static BlockDecoding build(byte[][] userKeys, byte[] value, int restartInterval) {
        BlockBuilder b = new BlockBuilder(restartInterval);
        long trailer = InternalKeys.trailer(1, InternalKeys.KIND_PUT);
        for (byte[] key : userKeys) {
            b.add(key, trailer, value, 0, value.length);
        }
        int length = b.finish();
        return new BlockDecoding(Arrays.copyOf(b.buffer(), length), length);
    }

    public int length() {
        return length;
    }

    /** Parses the block and decodes every entry; returns the number of value bytes seen. */
    public long decodeAll() {
        BlockIterator it = new Block(contents, length, PATH, 0).iterator();
        long bytes = 0;
        for (it.seekToFirst(); it.isValid(); it.next()) {
            bytes += it.value().length;
        }
        return bytes;
    }

    /** Parses the block and seeks to {@code userKey}, as a point lookup does; true if found. */
    public boolean seek(byte[] userKey) {
        BlockIterator it = new Block(contents, length, PATH, 0).iterator();
        it.seek(userKey, InternalKeys.MAX_SEQUENCE);
        return it.isValid() && it.userKeyEquals(userKey);
    }
}
