package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * Items on their way into an HTable, packed: each item's bucket encoding (docs/formats/htable.md) in a
 * byte arena of chunks (up to 64 KiB), its hash, home bucket and place in parallel primitive arrays. A
 * writer walks its items several times (windows, filters, balancing, rank order, encoding); with an
 * object per item, each walk missed the cache once per item, which a JFR profile of LSM_TRIE's
 * compaction found to be 40% of its thread. Arrays walk in order, the encoding is made once and copied
 * into its bucket, and an entry's key and value are copied once, from the caller's views. The arena
 * grows by chunks, so growing copies nothing; an item never straddles two (one larger than a chunk gets
 * its own). Items are numbered in the order added.
 *
 * <p>Not thread-safe.
 */
final class PackedItems {
    static final int CHUNK = 64 << 10;
    /** Chunks start small (a table may hold a few items) and double up to {@link #CHUNK}. */
    private int chunkSize = 4 << 10;
    private byte[][] chunks = new byte[4][];
    /** The chunk being filled, and the bytes used of it. */
    private int current;
    private int used;
    private int count;
    /** Per item: its chunk, and the offset of its encoding there. */
    private int[] chunk;
    private int[] offset;
    private int[] size;
    /** Where the key starts in its chunk, and its length. */
    private int[] keyAt;
    private int[] keyLength;
    private long[] seq;
    private long[] hi;
    private long[] lo;
    private int[] home;

    PackedItems() {
        int n = 64;
        chunk = new int[n];
        offset = new int[n];
        size = new int[n];
        keyAt = new int[n];
        keyLength = new int[n];
        seq = new long[n];
        hi = new long[n];
        lo = new long[n];
        home = new int[n];
    }

    /** Adds an entry (value ignored for a tombstone); returns its number. */
    int add(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen, long sequence, int kind,
            long h, long l) {
        boolean tombstone = kind == InternalKeys.KIND_DELETE;
        int vLen = tombstone ? 0 : valueLen;
        int n = HTableFormat.itemSize(keyLen, vLen, sequence, tombstone);
        int i = slot(n);
        byte[] arena = chunks[chunk[i]];
        int off = offset[i];
        off = Coding.putVarLong(arena, off, keyLen);
        off = Coding.putVarLong(arena, off, tombstone ? 0 : vLen + 1L);
        off = Coding.putVarLong(arena, off, sequence);
        keyAt[i] = off;
        keyLength[i] = keyLen;
        System.arraycopy(key, keyOff, arena, off, keyLen);
        off += keyLen;
        if (vLen > 0) {
            System.arraycopy(value, valueOff, arena, off, vLen);
        }
        seq[i] = sequence;
        hi[i] = h;
        lo[i] = l;
        home[i] = -1;
        return i;
    }

    /** Adds item {@code i} of {@code from} (its encoding copied); returns its number here. */
    int add(PackedItems from, int i) {
        int n = from.size[i];
        int j = slot(n);
        System.arraycopy(from.chunks[from.chunk[i]], from.offset[i], chunks[chunk[j]], offset[j], n);
        keyAt[j] = offset[j] + (from.keyAt[i] - from.offset[i]);
        keyLength[j] = from.keyLength[i];
        seq[j] = from.seq[i];
        hi[j] = from.hi[i];
        lo[j] = from.lo[i];
        home[j] = from.home[i];
        return j;
    }

    /** Reserves the next item and its {@code n} encoded bytes at the arena's end; returns its number. */
    private int slot(int n) {
        if (count == offset.length) {
            int c = count * 2;
            chunk = Arrays.copyOf(chunk, c);
            offset = Arrays.copyOf(offset, c);
            size = Arrays.copyOf(size, c);
            keyAt = Arrays.copyOf(keyAt, c);
            keyLength = Arrays.copyOf(keyLength, c);
            seq = Arrays.copyOf(seq, c);
            hi = Arrays.copyOf(hi, c);
            lo = Arrays.copyOf(lo, c);
            home = Arrays.copyOf(home, c);
        }
        if (chunks[current] == null || chunks[current].length - used < n) {
            nextChunk(n);
        }
        int i = count++;
        chunk[i] = current;
        offset[i] = used;
        size[i] = n;
        used += n;
        return i;
    }

    /** Moves to a chunk with room for {@code n} bytes: the next one kept from before a clear, or a new one. */
    private void nextChunk(int n) {
        if (chunks[current] != null) {
            current++;
        }
        if (current == chunks.length) {
            chunks = Arrays.copyOf(chunks, 2 * current);
        }
        if (chunks[current] == null || chunks[current].length < n) {
            chunks[current] = new byte[Math.max(chunkSize, n)];
            chunkSize = Math.min(CHUNK, 2 * chunkSize);
        }
        used = 0;
    }

    int count() {
        return count;
    }

    int size(int i) {
        return size[i];
    }

    long hi(int i) {
        return hi[i];
    }

    long lo(int i) {
        return lo[i];
    }

    int home(int i) {
        return home[i];
    }

    void setHome(int i, int bucket) {
        home[i] = bucket;
    }

    /** Whether items {@code i} and {@code j} have the same key (the hashes decide most pairs). */
    boolean sameKey(int i, int j) {
        return hi[i] == hi[j] && lo[i] == lo[j] && Arrays.equals(chunks[chunk[i]], keyAt[i], keyAt[i] + keyLength[i],
                chunks[chunk[j]], keyAt[j], keyAt[j] + keyLength[j]);
    }

    /** Whether item {@code i}'s key is {@code key[off, off + len)}. */
    boolean keyEquals(int i, byte[] key, int off, int len) {
        return Arrays.equals(chunks[chunk[i]], keyAt[i], keyAt[i] + keyLength[i], key, off, off + len);
    }

    /** Internal-key order of items {@code i} and {@code j}: key ascending, then newest first. */
    int compare(int i, int j) {
        int c = Bytes.compare(chunks[chunk[i]], keyAt[i], keyLength[i], chunks[chunk[j]], keyAt[j], keyLength[j]);
        return c != 0 ? c : Long.compare(seq[j], seq[i]);
    }

    /** Internal-key order of item {@code i} and {@code key[0, len)} at {@code s}. */
    int compare(int i, byte[] key, int len, long s) {
        int c = Bytes.compare(chunks[chunk[i]], keyAt[i], keyLength[i], key, 0, len);
        return c != 0 ? c : Long.compare(s, seq[i]);
    }

    /** Copies item {@code i}'s key into {@code into} if it fits, else into a new array; returns the array. */
    byte[] keyInto(int i, byte[] into) {
        byte[] b = into.length >= keyLength[i] ? into : new byte[Math.max(keyLength[i], 2 * into.length)];
        System.arraycopy(chunks[chunk[i]], keyAt[i], b, 0, keyLength[i]);
        return b;
    }

    int keyLength(int i) {
        return keyLength[i];
    }

    /** Copies item {@code i}'s encoding to {@code out[off]}; returns the offset after it. */
    int encode(int i, byte[] out, int off) {
        System.arraycopy(chunks[chunk[i]], offset[i], out, off, size[i]);
        return off + size[i];
    }

    /** The chunk holding item {@code i}'s encoding, at {@link #offset} ({@link #size} bytes). */
    byte[] chunkOf(int i) {
        return chunks[chunk[i]];
    }

    int offset(int i) {
        return offset[i];
    }

    /** Forgets every item, keeping the arrays for the next ones. */
    void clear() {
        count = 0;
        current = 0;
        used = 0;
    }
}
