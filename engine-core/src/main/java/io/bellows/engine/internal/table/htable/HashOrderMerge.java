package io.bellows.engine.internal.table.htable;

import java.io.IOException;
import java.util.List;

/**
 * A k-way merge, on a binary heap, of {@link HashOrderCursor}s, each already in hash order, so no input
 * is sorted in full (the cost LSM-trie's compaction was designed to avoid, paper §2.3). The versions of a
 * key meet newest first ({@link HashOrderCursor#compare}).
 */
public final class HashOrderMerge {
    private final HashOrderCursor[] heap;
    private int n;

    /** Positions every cursor at its first entry and orders them. */
    public HashOrderMerge(List<HashOrderCursor> cursors) throws IOException {
        heap = new HashOrderCursor[cursors.size()];
        for (HashOrderCursor c : cursors) {
            if (c.next()) {
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
        if (!heap[0].next()) {
            heap[0] = heap[--n];
            heap[n] = null;
        }
        if (n > 0) {
            siftDown(0);
        }
    }

    private void siftDown(int i) {
        HashOrderCursor x = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && HashOrderCursor.compare(heap[child + 1], heap[child]) < 0) {
                child++;
            }
            if (HashOrderCursor.compare(heap[child], x) >= 0) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = x;
    }
}
