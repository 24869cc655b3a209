package io.bellows.engine.internal.table.htable;

import java.io.IOException;
import java.util.List;

/**
 * A k-way merge, on a binary heap, of {@link HashOrderCursor}s, each already in hash order, so no input
 * is sorted in full (the cost LSM-trie's compaction was designed to avoid, paper §2.3). The versions of a
 * key meet newest first ({@link HashOrderCursor#compare}).
 *
 * <p>The heap keeps each cursor's {@link HashOrderCursor#sortKey} beside it: a merge of 8 to 20 inputs
 * compares several times per entry, and most comparisons end on that key, read here from one array
 * instead of from each cursor's item arrays.
 */
public final class HashOrderMerge {
    private final HashOrderCursor[] heap;
    private final long[] keys;
    private int n;

    /** Positions every cursor at its first entry and orders them. */
    public HashOrderMerge(List<HashOrderCursor> cursors) throws IOException {
        heap = new HashOrderCursor[cursors.size()];
        keys = new long[cursors.size()];
        for (HashOrderCursor c : cursors) {
            if (c.next()) {
                keys[n] = c.sortKey();
                heap[n++] = c;
            }
        }
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /** The cursor at the smallest entry not yet passed, or null when every input is exhausted. */
    public HashOrderCursor top() {
        return n == 0 ? null : heap[0];
    }

    /** Moves past the entry {@link #top()} shows. */
    public void advance() throws IOException {
        if (heap[0].next()) {
            keys[0] = heap[0].sortKey();
        } else {
            heap[0] = heap[--n];
            keys[0] = keys[n];
            heap[n] = null;
        }
        if (n > 0) {
            siftDown(0);
        }
    }

    private void siftDown(int i) {
        HashOrderCursor x = heap[i];
        long xKey = keys[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && less(keys[child + 1], heap[child + 1], keys[child], heap[child])) {
                child++;
            }
            if (!less(keys[child], heap[child], xKey, x)) {
                break;
            }
            heap[i] = heap[child];
            keys[i] = keys[child];
            i = child;
        }
        heap[i] = x;
        keys[i] = xKey;
    }

    private static boolean less(long keyA, HashOrderCursor a, long keyB, HashOrderCursor b) {
        int c = Long.compareUnsigned(keyA, keyB);
        return c < 0 || c == 0 && HashOrderCursor.compareTies(a, b) < 0;
    }
}
