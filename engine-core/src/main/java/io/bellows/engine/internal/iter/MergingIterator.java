package io.bellows.engine.internal.iter;

import io.bellows.engine.internal.key.InternalKeys;
import java.util.List;

/**
 * A k-way merge of internal iterators in internal order, over a binary min-heap of the positioned
 * children (LevelDB's MergingIterator uses a linear scan; a heap keeps next() at O(log k) for the
 * many-run merges of tiered and FLSM compactions). Entries equal in user key and sequence, which
 * can exist transiently (a table and the MemStore segment it was flushed from), come out in child
 * order. Each child's current key and sequence are cached so heap comparisons make no calls.
 *
 * <p>Closing the merge closes every child. Thread safety: one thread at a time.
 */
public final class MergingIterator implements InternalIterator {
    private final InternalIterator[] children;
    private final byte[][] keys;
    private final long[] sequences;
    /** Indexes of the valid children, heap-ordered in [0, size). */
    private final int[] heap;
    private int size;
    private boolean closed;

    public MergingIterator(List<? extends InternalIterator> children) {
        this.children = children.toArray(new InternalIterator[0]);
        int n = this.children.length;
        this.keys = new byte[n][];
        this.sequences = new long[n];
        this.heap = new int[n];
    }

    @Override
    public boolean isValid() {
        return size > 0;
    }

    @Override
    public void seekToFirst() {
        for (InternalIterator child : children) {
            child.seekToFirst();
        }
        rebuild();
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        for (InternalIterator child : children) {
            child.seek(userKey, sequence);
        }
        rebuild();
    }

    @Override
    public void next() {
        int top = heap[0];
        InternalIterator child = children[top];
        child.next();
        if (child.isValid()) {
            capture(top);
        } else {
            keys[top] = null;
            heap[0] = heap[--size];
        }
        if (size > 0) {
            siftDown(0);
        }
    }

    @Override
    public byte[] key() {
        return keys[heap[0]];
    }

    @Override
    public long sequence() {
        return sequences[heap[0]];
    }

    @Override
    public int kind() {
        return children[heap[0]].kind();
    }

    @Override
    public byte[] value() {
        return children[heap[0]].value();
    }

    /** Closes every child, even if some fail; the first failure is rethrown, later ones suppressed. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        size = 0;
        RuntimeException failure = null;
        for (InternalIterator child : children) {
            try {
                child.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void rebuild() {
        size = 0;
        for (int i = 0; i < children.length; i++) {
            if (children[i].isValid()) {
                capture(i);
                heap[size++] = i;
            } else {
                keys[i] = null;
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    private void capture(int child) {
        keys[child] = children[child].key();
        sequences[child] = children[child].sequence();
    }

    private void siftDown(int i) {
        int moving = heap[i];
        while (true) {
            int smallest = 2 * i + 1;
            if (smallest >= size) {
                break;
            }
            int right = smallest + 1;
            if (right < size && less(heap[right], heap[smallest])) {
                smallest = right;
            }
            if (!less(heap[smallest], moving)) {
                break;
            }
            heap[i] = heap[smallest];
            i = smallest;
        }
        heap[i] = moving;
    }

    /** Whether child a's entry comes before child b's: internal order, then child index. */
    private boolean less(int a, int b) {
        int c = InternalKeys.compare(keys[a], sequences[a], keys[b], sequences[b]);
        return c != 0 ? c < 0 : a < b;
    }
}
