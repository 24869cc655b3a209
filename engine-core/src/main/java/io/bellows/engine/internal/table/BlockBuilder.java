package io.bellows.engine.internal.table;

import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * Builds the contents of a data or index block (spec: docs/formats/sstable.md, "Blocks").
 *
 * <pre>
 * entry    := varint32 shared | varint32 non_shared | varint32 value_length
 *             | key_delta[non_shared] | value[value_length]
 * contents := entry* | restart u32 LE * num_restarts | num_restarts u32 LE
 * </pre>
 *
 * A key is an internal key (user key, then the 8-byte little-endian trailer {@code seq << 8 | kind});
 * each entry stores only the bytes that differ from the previous key. Every {@code restartInterval}
 * entries the full key is stored ({@code shared == 0}) and its offset recorded as a restart point,
 * so a reader can binary-search the restart points and decode forward from one.
 *
 * <p>The internal buffer keeps {@link TableFormat#BLOCK_TRAILER_LENGTH} spare bytes after the
 * finished contents so the writer can append the trailer in place and write the block in one call.
 * Not thread-safe.
 */
final class BlockBuilder {
    private final int restartInterval;
    private byte[] buf = new byte[4096];
    private int size;
    private int[] restarts = new int[64];
    private int numRestarts;
    private int sinceRestart;
    private int entries;
    private byte[] lastKey = new byte[64];
    private int lastKeyLength;
    private byte[] key = new byte[64];

    BlockBuilder(int restartInterval) {
        if (restartInterval < 1) {
            throw new IllegalArgumentException("restart interval must be at least 1, got " + restartInterval);
        }
        this.restartInterval = restartInterval;
        reset();
    }

    void reset() {
        size = 0;
        restarts[0] = 0;
        numRestarts = 1;
        sinceRestart = 0;
        entries = 0;
        lastKeyLength = 0;
    }

    int restartInterval() {
        return restartInterval;
    }

    boolean isEmpty() {
        return entries == 0;
    }

    /** Size of the contents if the block were finished now. */
    int estimatedSize() {
        return size + 4 * numRestarts + 4;
    }

    /**
     * Appends an entry. REQUIRES: the internal key {@code (userKey, trailer)} follows the previous one;
     * the table builder checks the order.
     */
    void add(byte[] userKey, long trailer, byte[] value, int valueOffset, int valueLength) {
        add(userKey, 0, userKey.length, trailer, value, valueOffset, valueLength);
    }

    /** As above, for the user key {@code keyBuf[keyOffset, keyOffset + userKeyLength)}. */
    void add(byte[] keyBuf, int keyOffset, int userKeyLength, long trailer, byte[] value, int valueOffset,
            int valueLength) {
        int keyLength = userKeyLength + TableFormat.KEY_TRAILER_LENGTH;
        if (key.length < keyLength) {
            key = new byte[Math.max(keyLength, 2 * key.length)];
        }
        System.arraycopy(keyBuf, keyOffset, key, 0, userKeyLength);
        Coding.putLong(key, userKeyLength, trailer);

        int shared = 0;
        if (sinceRestart < restartInterval) {
            int m = Arrays.mismatch(lastKey, 0, lastKeyLength, key, 0, keyLength);
            shared = m < 0 ? keyLength : m;
        } else {
            if (numRestarts == restarts.length) {
                restarts = Arrays.copyOf(restarts, 2 * numRestarts);
            }
            restarts[numRestarts++] = size;
            sinceRestart = 0;
        }
        int nonShared = keyLength - shared;
        ensure(15 + nonShared + valueLength);
        size = Coding.putVarInt(buf, size, shared);
        size = Coding.putVarInt(buf, size, nonShared);
        size = Coding.putVarInt(buf, size, valueLength);
        System.arraycopy(key, shared, buf, size, nonShared);
        size += nonShared;
        System.arraycopy(value, valueOffset, buf, size, valueLength);
        size += valueLength;

        byte[] t = lastKey;
        lastKey = key;
        key = t;
        lastKeyLength = keyLength;
        sinceRestart++;
        entries++;
    }

    /**
     * Appends the restart array and returns the length of the block contents, which are
     * {@code buffer()[0, length)}; the buffer has room for the trailer after them.
     */
    int finish() {
        ensure(4 * numRestarts + 4 + TableFormat.BLOCK_TRAILER_LENGTH);
        for (int i = 0; i < numRestarts; i++) {
            Coding.putInt(buf, size, restarts[i]);
            size += 4;
        }
        Coding.putInt(buf, size, numRestarts);
        size += 4;
        return size;
    }

    byte[] buffer() {
        return buf;
    }

    private void ensure(int extra) {
        long need = (long) size + extra;
        if (need > TableFormat.MAX_BLOCK_LENGTH) {
            throw new IllegalArgumentException("block exceeds " + TableFormat.MAX_BLOCK_LENGTH + " bytes");
        }
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(TableFormat.MAX_BLOCK_LENGTH, Math.max(need, 2L * buf.length)));
        }
    }
}
