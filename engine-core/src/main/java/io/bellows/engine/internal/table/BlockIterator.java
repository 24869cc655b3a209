package io.bellows.engine.internal.table;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;

/**
 * A cursor over the entries of one {@link Block} in internal-key order, both ways. Entries are
 * prefix-compressed, so {@link #prev()} scans forward from the restart point before the current entry
 * (LevelDB's Block::Iter::Prev): at most one restart interval decoded per step. Keys are decoded into
 * a reused buffer; {@link #userKey()} and {@link #value()} copy out lazily, once per position, so a
 * seek that only compares allocates nothing per entry. Any malformed entry raises a
 * {@link io.bellows.engine.CorruptionException} naming the file and offset.
 *
 * <p>Thread safety: one thread at a time; the block itself is shared.
 */
final class BlockIterator {
    private static final int MAX_INTERNAL_KEY_LENGTH = InternalKeys.MAX_KEY_LENGTH + TableFormat.KEY_TRAILER_LENGTH;

    private Block block;
    private byte[] data;
    private int limit;
    /** Offset of the current entry; {@code limit} when not positioned on one. */
    private int current;
    private int nextOffset;
    /** The restart point at or before {@link #current}, kept by {@link #next()} for {@link #prev()}. */
    private int restartIndex;
    /** Offset of the restart point after {@link #restartIndex}, so next() reads the restart array only on crossing it. */
    private int nextRestartOffset;
    /** The current internal key: user key then trailer. */
    private byte[] key = new byte[32];
    private int keyLength;
    private long trailer;
    private int valueOffset;
    private int valueLength;
    /** Decoding cursor of {@link #varint}. */
    private int pos;
    private byte[] userKeyCopy;
    private byte[] valueCopy;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();

    BlockIterator(Block block) {
        reset(block);
    }

    /** An iterator over no block yet: {@link #reset} it before use. */
    BlockIterator() {}

    /**
     * Makes this an unpositioned iterator over {@code b}, keeping its key buffer: a point lookup reuses
     * one iterator per thread instead of allocating two per table probed.
     */
    BlockIterator reset(Block b) {
        this.block = b;
        this.data = b.data;
        this.limit = b.restartsOffset;
        this.current = limit;
        this.nextOffset = limit;
        this.keyLength = 0;
        this.restartIndex = 0;
        this.nextRestartOffset = restartAfter(0);
        this.userKeyCopy = null;
        this.valueCopy = null;
        return this;
    }

    /** Lets go of the block, so a reused iterator does not keep it reachable. */
    void clear() {
        block = null;
        data = null;
        limit = 0;
        current = 0;
        nextOffset = 0;
    }

    boolean isValid() {
        return current < limit;
    }

    void seekToFirst() {
        seekToRestart(0);
        next();
    }

    /** Positions at the first entry at or after {@code (userKey, sequence)} in internal order. */
    void seek(byte[] userKey, long sequence) {
        current = limit;
        // Find the last restart point whose key is before the target, then scan forward from it.
        int lo = 0;
        int hi = block.numRestarts - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (compareRestartKey(mid, userKey, sequence) < 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        seekToRestart(lo);
        do {
            next();
        } while (isValid() && compareTo(userKey, sequence) < 0);
    }

    /** Positions at the last entry at or before {@code (userKey, sequence)} in internal order. */
    void seekForPrev(byte[] userKey, long sequence) {
        seek(userKey, sequence);
        if (!isValid()) {
            seekToLast();
        } else if (compareTo(userKey, sequence) > 0) {
            prev();
        }
    }

    void seekToLast() {
        seekToRestart(block.numRestarts - 1);
        do {
            next();
        } while (nextOffset < limit);
    }

    /** REQUIRES: {@link #isValid()}. Moves to the previous entry; invalid past the first. */
    void prev() {
        int original = current;
        while (block.restart(restartIndex) >= original) {
            if (restartIndex == 0) {
                current = limit;
                nextOffset = limit;
                userKeyCopy = null;
                valueCopy = null;
                return;
            }
            restartIndex--;
        }
        seekToRestart(restartIndex);
        do {
            next();
        } while (nextOffset < original);
    }

    void next() {
        int at = nextOffset;
        current = limit;
        userKeyCopy = null;
        valueCopy = null;
        if (at >= limit) {
            return;
        }
        pos = at;
        int shared = varint();
        int nonShared = varint();
        int vlen = varint();
        long keyEnd = (long) pos + nonShared;
        long valueEnd = keyEnd + vlen;
        long newLength = (long) shared + nonShared;
        if (shared > keyLength || valueEnd > limit) {
            throw block.corruption(at, "entry overruns its block or its previous key");
        }
        if (newLength < TableFormat.KEY_TRAILER_LENGTH || newLength > MAX_INTERNAL_KEY_LENGTH) {
            throw block.corruption(at, "bad internal key length " + newLength);
        }
        if (key.length < newLength) {
            key = Arrays.copyOf(key, (int) Math.max(newLength, 2L * key.length));
        }
        System.arraycopy(data, pos, key, shared, nonShared);
        keyLength = (int) newLength;
        trailer = Coding.getLong(key, keyLength - TableFormat.KEY_TRAILER_LENGTH);
        if (!InternalKeys.validKind(InternalKeys.kind(trailer))) {
            throw block.corruption(at, "bad entry kind " + InternalKeys.kind(trailer));
        }
        valueOffset = (int) keyEnd;
        valueLength = vlen;
        nextOffset = (int) valueEnd;
        current = at;
        while (at >= nextRestartOffset) {
            restartIndex++;
            nextRestartOffset = restartAfter(restartIndex);
        }
    }

    /** The user key of the current entry; the same array until the iterator moves. */
    byte[] userKey() {
        if (userKeyCopy == null) {
            userKeyCopy = Arrays.copyOf(key, keyLength - TableFormat.KEY_TRAILER_LENGTH);
        }
        return userKeyCopy;
    }

    /** The user key of the current entry in the iterator's key buffer; valid until it moves. */
    Slice userKeySlice() {
        return keyView.set(key, 0, keyLength - TableFormat.KEY_TRAILER_LENGTH);
    }

    /** The value of the current entry in the block; valid while the block is pinned and the iterator stays. */
    Slice valueSlice() {
        return valueView.set(data, valueOffset, valueLength);
    }

    long sequence() {
        return InternalKeys.sequence(trailer);
    }

    int kind() {
        return InternalKeys.kind(trailer);
    }

    /** The value of the current entry; the same array until the iterator moves. */
    byte[] value() {
        if (valueCopy == null) {
            valueCopy = valueLength == 0 ? Bytes.EMPTY
                    : Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
        }
        return valueCopy;
    }

    boolean userKeyEquals(byte[] userKey) {
        return Arrays.equals(key, 0, keyLength - TableFormat.KEY_TRAILER_LENGTH, userKey, 0, userKey.length);
    }

    /** Compares the current entry with {@code (userKey, sequence)} in internal order. */
    int compareTo(byte[] userKey, long sequence) {
        int c = Bytes.compare(key, 0, keyLength - TableFormat.KEY_TRAILER_LENGTH, userKey, 0, userKey.length);
        return c != 0 ? c : Long.compare(sequence, sequence());
    }

    /** The block's array, in which the current value lies at {@link #valueOffset()}. */
    byte[] data() {
        return data;
    }

    int valueOffset() {
        return valueOffset;
    }

    int valueLength() {
        return valueLength;
    }

    /**
     * The offset of the block the current index value names, read without building its
     * {@link BlockHandle} (a get looks the block up in the cache by it first); {@link #handle()} checks it.
     */
    long handleOffset() {
        long result = 0;
        int end = valueOffset + valueLength;
        for (int p = valueOffset, shift = 0; p < end && shift <= 63; p++, shift += 7) {
            int b = data[p];
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw block.corruption(current, "malformed block handle in index entry");
    }

    /**
     * The size in the block handle of the current index entry, decoded in place: a varint of at most
     * 5 bytes, at most the block length limit, ending the value exactly. The offset before it is
     * {@link #handleOffset()}'s to decode and the table reader's to check.
     */
    int handleSize() {
        int end = valueOffset + valueLength;
        int p = valueOffset;
        while (p < end && (data[p] & 0x80) != 0) {
            p++;
        }
        p++;
        long size = 0;
        for (int shift = 0; p < end && shift <= 28; p++, shift += 7) {
            int b = data[p];
            size |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (p + 1 == end && size <= TableFormat.MAX_BLOCK_LENGTH) {
                    return (int) size;
                }
                break;
            }
        }
        throw block.corruption(current, "malformed block handle in index entry");
    }

    /** The current value read as a block handle (index blocks). */
    BlockHandle handle() {
        try {
            return BlockHandle.decodeVarint(data, valueOffset, valueLength);
        } catch (IllegalStateException e) {
            throw block.corruption(current, "malformed block handle in index entry");
        }
    }

    private int restartAfter(int i) {
        return i + 1 < block.numRestarts ? block.restart(i + 1) : Integer.MAX_VALUE;
    }

    private void seekToRestart(int i) {
        keyLength = 0;
        restartIndex = i;
        nextRestartOffset = restartAfter(i);
        nextOffset = block.restart(i);
    }

    private int compareRestartKey(int i, byte[] userKey, long sequence) {
        int at = block.restart(i);
        pos = at;
        int shared = varint();
        int nonShared = varint();
        int vlen = varint();
        if (shared != 0) {
            throw block.corruption(at, "restart point entry shares a key prefix");
        }
        if (nonShared < TableFormat.KEY_TRAILER_LENGTH || nonShared > MAX_INTERNAL_KEY_LENGTH
                || (long) pos + nonShared + vlen > limit) {
            throw block.corruption(at, "malformed restart point entry");
        }
        int userKeyLength = nonShared - TableFormat.KEY_TRAILER_LENGTH;
        int c = Bytes.compare(data, pos, userKeyLength, userKey, 0, userKey.length);
        return c != 0 ? c : Long.compare(sequence, InternalKeys.sequence(Coding.getLong(data, pos + userKeyLength)));
    }

    /** Decodes a non-negative varint32 at {@link #pos}, bounded by the entries' end. */
    private int varint() {
        int p = pos;
        int result = 0;
        for (int shift = 0; shift <= 28; shift += 7) {
            if (p >= limit) {
                throw block.corruption(pos, "truncated varint");
            }
            int b = data[p++];
            if (shift == 28 && (b & 0xf8) != 0) {
                break;
            }
            result |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                pos = p;
                return result;
            }
        }
        throw block.corruption(pos, "varint out of range");
    }
}
