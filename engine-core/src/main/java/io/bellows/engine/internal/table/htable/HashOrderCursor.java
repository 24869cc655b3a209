package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.Arrays;

/**
 * Every entry of one HTable in hash order ({@link #compare}): by the key's {@code hi} hash with its
 * low 32 bits (the bucket field) first, then by user key, then newest version first. A table's
 * buckets already follow that order (a key's home bucket grows with the bucket field, whatever the
 * table's bucket count), so the only sorting left is inside each home bucket (a few dozen items) and
 * of the items the balancer moved elsewhere, which are put back in their home by a counting pass.
 * Tables of one store share their hash, so cursors over several of them merge in one k-way pass:
 * an LSM_TRIE compaction needs no full sort of any input, and hands each entry's hash on to the
 * tables it writes instead of computing it again.
 *
 * <p>The cursor holds the table's bucket area (its bucket bytes, once) and six numbers per item, far
 * less than one object per entry. {@link #keySlice} and {@link #valueSlice} are views into that area
 * (an overflow item's value into scratch the cursor reuses), valid until the cursor moves, so a
 * compaction copies only the entries it keeps. Not thread-safe.
 */
public final class HashOrderCursor {
    private final HTableReader table;
    private final byte[] area;
    private final int count;
    /** Per item: offset of its key in {@link #area}, or {@code -1 - i} for overflow item i. */
    private final int[] keyAt;
    private final int[] keyLength;
    /** Value length, -1 for a tombstone. */
    private final int[] valueLength;
    private final long[] seqs;
    private final long[] his;
    private final long[] los;
    /** Items in hash order. */
    private final int[] order;
    private int pos = -1;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();
    /** An overflow item read again for its value; grown to the largest one read. */
    private byte[] overflowScratch = Bytes.EMPTY;

    HashOrderCursor(HTableReader table, byte[] area, int items, int overflow) {
        this.table = table;
        this.area = area;
        int n = items + overflow;
        keyAt = new int[n];
        keyLength = new int[n];
        valueLength = new int[n];
        seqs = new long[n];
        his = new long[n];
        los = new long[n];
        KeyHash hash = table.hash();
        int buckets = table.buckets();
        int i = 0;
        int[] p = new int[1];
        for (int b = 0; b < buckets; b++) {
            int off = b * HTableFormat.BUCKET_SIZE;
            int limit = off + HTableFormat.SOURCE_OFFSET;
            int stored = Coding.getShort(area, off);
            p[0] = off + HTableFormat.COUNT_LENGTH;
            for (int k = 0; k < stored; k++, i++) {
                int klen = Coding.getVarInt(area, p, limit);
                long vlen = Coding.getVarLong(area, p, limit);
                seqs[i] = Coding.getVarLong(area, p, limit);
                keyAt[i] = p[0];
                keyLength[i] = klen;
                valueLength[i] = vlen == 0 ? -1 : (int) (vlen - 1);
                if (p[0] + klen + Math.max(0, valueLength[i]) > limit) {
                    throw new IllegalStateException("item " + k + " of bucket " + b + " passes the bucket payload");
                }
                his[i] = hash.hi(area, p[0], klen);
                los[i] = hash.lo(area, p[0], klen);
                p[0] += klen + Math.max(0, valueLength[i]);
            }
        }
        if (i != items) {
            throw new IllegalStateException("buckets hold " + i + " items, the metadata says " + items);
        }
        for (int o = 0; o < overflow; o++, i++) {
            byte[] key = table.overflowKey(o);
            keyAt[i] = -1 - o;
            keyLength[i] = key.length;
            valueLength[i] = table.overflowValueLength(o);
            seqs[i] = table.overflowSeq(o);
            his[i] = hash.hi(key);
            los[i] = hash.lo(key);
        }
        count = n;
        order = homeOrder(buckets);
    }

    /** Counting sort by home bucket, then each home's few items sorted in place. */
    private int[] homeOrder(int buckets) {
        int[] start = new int[buckets + 1];
        for (int i = 0; i < count; i++) {
            start[KeyHash.bucket(his[i], buckets) + 1]++;
        }
        for (int b = 0; b < buckets; b++) {
            start[b + 1] += start[b];
        }
        int[] fill = Arrays.copyOf(start, buckets);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[fill[KeyHash.bucket(his[i], buckets)]++] = i;
        }
        for (int b = 0; b < buckets; b++) {
            insertionSort(out, start[b], start[b + 1]);
        }
        return out;
    }

    private void insertionSort(int[] a, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= from && compareItems(a[j], x) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    private int compareItems(int a, int b) {
        int c = compareHash(his[a], his[b]);
        if (c != 0) {
            return c;
        }
        c = compareKeys(a, b);
        return c != 0 ? c : Long.compare(seqs[b], seqs[a]);
    }

    private int compareKeys(int a, int b) {
        byte[] ka = keyArray(a);
        byte[] kb = keyArray(b);
        int oa = keyOffset(a);
        int ob = keyOffset(b);
        return Arrays.compareUnsigned(ka, oa, oa + keyLength[a], kb, ob, ob + keyLength[b]);
    }

    private byte[] keyArray(int i) {
        return keyAt[i] >= 0 ? area : table.overflowKey(-1 - keyAt[i]);
    }

    private int keyOffset(int i) {
        return keyAt[i] >= 0 ? keyAt[i] : 0;
    }

    /** Hash order of two keys' {@code hi}: the bucket field (low 32 bits) first, then the rest, unsigned. */
    public static int compareHash(long hiA, long hiB) {
        return Long.compareUnsigned(Long.rotateLeft(hiA, 32), Long.rotateLeft(hiB, 32));
    }

    /** Hash order of the current entries of two cursors over tables of one store. */
    public static int compare(HashOrderCursor a, HashOrderCursor b) {
        int x = a.order[a.pos];
        int y = b.order[b.pos];
        int c = compareHash(a.his[x], b.his[y]);
        if (c != 0) {
            return c;
        }
        c = Arrays.compareUnsigned(a.keyArray(x), a.keyOffset(x), a.keyOffset(x) + a.keyLength[x], b.keyArray(y),
                b.keyOffset(y), b.keyOffset(y) + b.keyLength[y]);
        return c != 0 ? c : Long.compare(b.seqs[y], a.seqs[x]);
    }

    /** Moves to the next entry (the first on the first call); false past the last. */
    public boolean next() {
        if (pos < count) {
            pos++;
        }
        return pos < count;
    }

    public boolean isValid() {
        return pos >= 0 && pos < count;
    }

    /** The current user key (a copy). */
    public byte[] key() {
        int i = order[pos];
        return keyAt[i] >= 0 ? Arrays.copyOfRange(area, keyAt[i], keyAt[i] + keyLength[i]) : keyArray(i);
    }

    public long sequence() {
        return seqs[order[pos]];
    }

    public int kind() {
        return valueLength[order[pos]] < 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
    }

    /** The current value (a copy), null for a tombstone. */
    public byte[] value() throws IOException {
        int i = order[pos];
        if (valueLength[i] < 0) {
            return null;
        }
        if (keyAt[i] < 0) {
            return table.overflowValue(-1 - keyAt[i]);
        }
        int at = keyAt[i] + keyLength[i];
        return Arrays.copyOfRange(area, at, at + valueLength[i]);
    }

    /** The current user key, valid until the cursor moves. */
    public Slice keySlice() {
        int i = order[pos];
        return keyView.set(keyArray(i), keyOffset(i), keyLength[i]);
    }

    /**
     * The current value, valid until the cursor moves; empty for a tombstone. An overflow item's value is
     * not in the bucket area, so it is read again (into scratch) only when asked for: a pruned version's
     * never is.
     */
    public Slice valueSlice() throws IOException {
        int i = order[pos];
        if (valueLength[i] <= 0) {
            return valueView.set(Bytes.EMPTY, 0, 0);
        }
        if (keyAt[i] < 0) {
            int o = -1 - keyAt[i];
            int len = table.overflowItemLength(o);
            if (overflowScratch.length < len) {
                overflowScratch = new byte[Math.max(len, 2 * overflowScratch.length)];
            }
            return valueView.set(overflowScratch, table.readOverflowItem(o, overflowScratch), valueLength[i]);
        }
        return valueView.set(area, keyAt[i] + keyLength[i], valueLength[i]);
    }

    /** The current key's {@code hi} hash under the table's seed. */
    public long hi() {
        return his[order[pos]];
    }

    /** The current key's {@code lo} hash under the table's seed. */
    public long lo() {
        return los[order[pos]];
    }
}
