package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.util.Futures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

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
 * <p>Items migrate only within their balancing window (docs/formats/htable.md), so the cursor holds one
 * window at a time: its bucket bytes and six numbers per item, far less than one object per entry. With
 * an executor it reads the next window while this one is merged. A table written before windows (format
 * version 2) is one window. {@link #keySlice} and {@link #valueSlice} are views into the window (an
 * overflow item's value into scratch the cursor reuses), valid until the cursor moves, so a compaction
 * copies only the entries it keeps. Not thread-safe; {@link #close} waits for a window being read ahead.
 */
public final class HashOrderCursor implements AutoCloseable {
    private final HTableReader table;
    private final int buckets;
    private final int window;
    private final int windows;
    private final Executor readAhead;
    /** Overflow items by home bucket, then as stored; their homes alongside. */
    private final int[] overflowOrder;
    private final int[] overflowHome;
    /** Overflow items' {@code hi} hashes, computed once for their homes and kept for their entries. */
    private final long[] overflowHi;
    private int overflowNext;
    /** The current window's bucket bytes, and the buffer the next one is read into. */
    private byte[] area;
    private byte[] spare;
    private CompletableFuture<Void> ahead;
    private int loaded = -1;
    private long itemsSeen;
    private int count;
    /** Per item: offset of its key in {@link #area}, or {@code -1 - i} for overflow item i. */
    private int[] keyAt = new int[0];
    private int[] keyLength = new int[0];
    /** Value length, -1 for a tombstone. */
    private int[] valueLength = new int[0];
    private long[] seqs = new long[0];
    private long[] his = new long[0];
    private long[] los = new long[0];
    /** Items of the current window in hash order. */
    private int[] order = new int[0];
    private int pos = -1;
    /**
     * The current item ({@code order[pos]}) and its primary sort key ({@link #sortKey}), kept in fields so
     * that a merge's comparisons, several per entry, read this object instead of two arrays per side.
     */
    private int cur;
    private long curSortKey;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();
    /** An overflow item read again for its value; grown to the largest one read. */
    private byte[] overflowScratch = Bytes.EMPTY;

    /** Reads the first window; {@code readAhead} null reads each window when the cursor reaches it. */
    HashOrderCursor(HTableReader table, int window, Executor readAhead) throws IOException {
        this.table = table;
        this.buckets = table.buckets();
        this.window = window;
        this.windows = (buckets + window - 1) / window;
        this.readAhead = windows > 1 ? readAhead : null;
        int overflow = table.overflowItems();
        overflowHome = new int[overflow];
        overflowHi = new long[overflow];
        Integer[] byHome = new Integer[overflow];
        for (int o = 0; o < overflow; o++) {
            overflowHi[o] = table.hash().hi(table.overflowKey(o));
            overflowHome[o] = KeyHash.bucket(overflowHi[o], buckets);
            byHome[o] = o;
        }
        Arrays.sort(byHome, (a, b) -> Integer.compare(overflowHome[a], overflowHome[b]));
        overflowOrder = new int[overflow];
        for (int o = 0; o < overflow; o++) {
            overflowOrder[o] = byHome[o];
        }
        area = new byte[Math.multiplyExact(Math.min(window, buckets), HTableFormat.BUCKET_SIZE)];
        load(0);
    }

    /** Makes window {@code w} current: its bucket bytes read and verified, its items parsed and ordered. */
    private void load(int w) throws IOException {
        int first = w * window;
        int n = Math.min(window, buckets - first);
        if (ahead != null) {
            // Left set while waiting, so that close() still waits for it if this wait is interrupted.
            boolean read = awaitRead(ahead);
            ahead = null;
            if (!read) {
                table.readBuckets(first, n, spare);
            }
            byte[] t = area;
            area = spare;
            spare = t;
        } else {
            table.readBuckets(first, n, area);
        }
        loaded = w;
        if (readAhead != null && w + 1 < windows) {
            int next = first + n;
            int nextCount = Math.min(window, buckets - next);
            if (spare == null) {
                spare = new byte[area.length];
            }
            byte[] into = spare;
            try {
                ahead = CompletableFuture.runAsync(() -> {
                    try {
                        table.readBuckets(next, nextCount, into);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, readAhead);
            } catch (RejectedExecutionException e) {
                // the pool is shutting down: the next window is read when the cursor reaches it
                ahead = null;
            }
        }
        try {
            parse(first, n);
        } catch (IllegalStateException | IndexOutOfBoundsException | ArithmeticException e) {
            throw table.corrupt(first, "malformed buckets: " + e.getMessage(), e);
        }
        pos = -1;
    }

    /**
     * Whether a read ahead ended well; a failed one (I/O, or an Error such as a thread that could not
     * start) is read again by the caller, which then reports any failure as its own.
     */
    private static boolean awaitRead(CompletableFuture<Void> f) throws IOException {
        try {
            f.get();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a window read ahead");
        } catch (ExecutionException | RuntimeException e) {
            return false;
        }
    }

    private void parse(int first, int n) {
        int stored = 0;
        for (int b = 0; b < n; b++) {
            stored += Coding.getShort(area, b * HTableFormat.BUCKET_SIZE);
        }
        int overflowEnd = overflowNext;
        while (overflowEnd < overflowOrder.length && overflowHome[overflowOrder[overflowEnd]] < first + n) {
            overflowEnd++;
        }
        count = stored + overflowEnd - overflowNext;
        if (keyAt.length < count) {
            int cap = Math.max(count, keyAt.length + (keyAt.length >> 1));
            keyAt = new int[cap];
            keyLength = new int[cap];
            valueLength = new int[cap];
            seqs = new long[cap];
            his = new long[cap];
            los = new long[cap];
            order = new int[cap];
        }
        KeyHash hash = table.hash();
        int i = 0;
        int[] p = new int[1];
        for (int b = 0; b < n; b++) {
            int off = b * HTableFormat.BUCKET_SIZE;
            int limit = off + HTableFormat.SOURCE_OFFSET;
            int inBucket = Coding.getShort(area, off);
            p[0] = off + HTableFormat.COUNT_LENGTH;
            for (int k = 0; k < inBucket; k++, i++) {
                int klen = Coding.getVarInt(area, p, limit);
                long vlen = Coding.getVarLong(area, p, limit);
                seqs[i] = Coding.getVarLong(area, p, limit);
                keyAt[i] = p[0];
                keyLength[i] = klen;
                valueLength[i] = vlen == 0 ? -1 : (int) (vlen - 1);
                if (p[0] + klen + Math.max(0, valueLength[i]) > limit) {
                    throw new IllegalStateException("item " + k + " of bucket " + (first + b)
                            + " passes the bucket payload");
                }
                his[i] = hash.hi(area, p[0], klen);
                los[i] = hash.lo(area, p[0], klen);
                int home = KeyHash.bucket(his[i], buckets);
                if (home < first || home >= first + n) {
                    throw new IllegalStateException("bucket " + (first + b) + " holds an item of bucket " + home
                            + ", outside its window");
                }
                p[0] += klen + Math.max(0, valueLength[i]);
            }
        }
        for (; overflowNext < overflowEnd; overflowNext++, i++) {
            int o = overflowOrder[overflowNext];
            byte[] key = table.overflowKey(o);
            keyAt[i] = -1 - o;
            keyLength[i] = key.length;
            valueLength[i] = table.overflowValueLength(o);
            seqs[i] = table.overflowSeq(o);
            his[i] = overflowHi[o];
            los[i] = hash.lo(key);
        }
        itemsSeen += stored;
        if (first + n == buckets && itemsSeen != table.entries() - overflowOrder.length) {
            throw new IllegalStateException("buckets hold " + itemsSeen + " items, the metadata says "
                    + (table.entries() - overflowOrder.length));
        }
        homeOrder(first, n);
    }

    /** Counting sort by home bucket, then each home's few items sorted in place. */
    private void homeOrder(int first, int n) {
        int[] start = new int[n + 1];
        for (int i = 0; i < count; i++) {
            start[KeyHash.bucket(his[i], buckets) - first + 1]++;
        }
        for (int b = 0; b < n; b++) {
            start[b + 1] += start[b];
        }
        int[] fill = Arrays.copyOf(start, n);
        for (int i = 0; i < count; i++) {
            order[fill[KeyHash.bucket(his[i], buckets) - first]++] = i;
        }
        for (int b = 0; b < n; b++) {
            insertionSort(order, start[b], start[b + 1]);
        }
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
        return Long.compareUnsigned(sortKey(hiA), sortKey(hiB));
    }

    /** Hash order of the current entries of two cursors over tables of one store. */
    public static int compare(HashOrderCursor a, HashOrderCursor b) {
        int c = Long.compareUnsigned(a.curSortKey, b.curSortKey);
        return c != 0 ? c : compareTies(a, b);
    }

    /** {@link #compare} of two entries with equal sort keys: by user key, then newest first. */
    public static int compareTies(HashOrderCursor a, HashOrderCursor b) {
        int x = a.cur;
        int y = b.cur;
        int c = Arrays.compareUnsigned(a.keyArray(x), a.keyOffset(x), a.keyOffset(x) + a.keyLength[x], b.keyArray(y),
                b.keyOffset(y), b.keyOffset(y) + b.keyLength[y]);
        return c != 0 ? c : Long.compare(b.seqs[y], a.seqs[x]);
    }

    /** Moves to the next entry (the first on the first call); false past the last. */
    public boolean next() throws IOException {
        if (pos < count) {
            pos++;
        }
        while (pos == count && loaded + 1 < windows) {
            load(loaded + 1);
            pos = 0;
        }
        if (pos < count) {
            cur = order[pos];
            curSortKey = sortKey(his[cur]);
            return true;
        }
        return false;
    }

    /**
     * The first key of hash order as one unsigned long: {@code hi} with its bucket field (low 32 bits)
     * first; entries with equal sort keys are ordered by {@link #compare}.
     */
    public static long sortKey(long hi) {
        return Long.rotateLeft(hi, 32);
    }

    /** The current entry's {@link #sortKey}. */
    public long sortKey() {
        return curSortKey;
    }

    /** Waits for a window being read ahead, so that nothing reads the table once the caller lets it go. */
    @Override
    public void close() {
        if (ahead != null) {
            Futures.awaitQuietly(ahead);
            ahead = null;
        }
    }

    public boolean isValid() {
        return pos >= 0 && pos < count;
    }

    /** The current user key (a copy). */
    public byte[] key() {
        int i = cur;
        return keyAt[i] >= 0 ? Arrays.copyOfRange(area, keyAt[i], keyAt[i] + keyLength[i]) : keyArray(i);
    }

    public long sequence() {
        return seqs[cur];
    }

    public int kind() {
        return valueLength[cur] < 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
    }

    /** The current value (a copy), null for a tombstone. */
    public byte[] value() throws IOException {
        int i = cur;
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
        int i = cur;
        return keyView.set(keyArray(i), keyOffset(i), keyLength[i]);
    }

    /**
     * The current value, valid until the cursor moves; empty for a tombstone. An overflow item's value is
     * not in the bucket area, so it is read again (into scratch) only when asked for: a pruned version's
     * never is.
     */
    public Slice valueSlice() throws IOException {
        int i = cur;
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
        return his[cur];
    }

    /** The current key's {@code lo} hash under the table's seed. */
    public long lo() {
        return los[cur];
    }
}
