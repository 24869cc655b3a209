package io.bellows.engine.internal.iter;

import java.util.List;

/**
 * A k-way merge of internal iterators in internal order, over a binary min-heap of the positioned
 * children (LevelDB's MergingIterator uses a linear scan; a heap keeps next() at O(log k) for the
 * many-run merges of tiered and FLSM compactions). Entries equal in user key and sequence, which
 * can exist transiently (a table and the MemStore segment it was flushed from), come out in child
 * order forward and in reverse child order backward. Each child's current key view and sequence are
 * cached so heap comparisons make no calls, and keys are compared in place in the children's memory
 * (blocks, cells): the merge copies nothing.
 *
 * <p>Backward, the same heap holds the children by the reverse order (a max-heap). A change of
 * direction re-positions every child but the current one on the other side of the current entry, as
 * LevelDB's MergingIterator does, so that each child again stands at its next entry in the new direction.
 *
 * <p>Closing the merge closes every child. Thread safety: one thread at a time.
 */
public final class MergingIterator implements InternalIterator {
    private final InternalIterator[] children;
    /** The current key view of each valid child (its own flyweight, re-captured after each move). */
    private final Slice[] keys;
    private final long[] sequences;
    /** Indexes of the valid children, heap-ordered in [0, size). */
    private final int[] heap;
    private int size;
    private boolean forward = true;
    private boolean closed;

    public MergingIterator(List<? extends InternalIterator> children) {
        this.children = children.toArray(new InternalIterator[0]);
        int n = this.children.length;
        this.keys = new Slice[n];
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
        rebuild(true);
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        for (InternalIterator child : children) {
            child.seek(userKey, sequence);
        }
        rebuild(true);
    }

    @Override
    public void seekToLast() {
        for (InternalIterator child : children) {
            child.seekToLast();
        }
        rebuild(false);
    }

    @Override
    public void seekForPrev(byte[] userKey, long sequence) {
        for (InternalIterator child : children) {
            child.seekForPrev(userKey, sequence);
        }
        rebuild(false);
    }

    @Override
    public void next() {
        if (!forward) {
            turn(true);
        }
        step(true);
    }

    @Override
    public void prev() {
        if (forward) {
            turn(false);
        }
        step(false);
    }

    /**
     * Re-positions every child but the current one just past the current entry in the new direction:
     * forward, at its first entry after it in (internal order, child index); backward, at its last
     * entry before it. The current child then moves by {@link #step}.
     */
    private void turn(boolean toForward) {
        int top = heap[0];
        // A turn is rare: the key the others seek to is copied out of the current child once.
        byte[] k = keys[top].copy();
        long seq = sequences[top];
        for (int i = 0; i < children.length; i++) {
            if (i == top) {
                continue;
            }
            InternalIterator child = children[i];
            if (toForward) {
                child.seek(k, seq);
                if (i < top && child.isValid() && atEntry(child, k, seq)) {
                    child.next();
                }
            } else {
                child.seekForPrev(k, seq);
                if (i > top && child.isValid() && atEntry(child, k, seq)) {
                    child.prev();
                }
            }
        }
        // The current child, still at the current entry, comes first in the new order: the heap's root.
        rebuild(toForward);
    }

    private static boolean atEntry(InternalIterator child, byte[] k, long seq) {
        return child.sequence() == seq && child.keySlice().contentEquals(k);
    }

    private void step(boolean ahead) {
        int top = heap[0];
        InternalIterator child = children[top];
        if (ahead) {
            child.next();
        } else {
            child.prev();
        }
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
        return children[heap[0]].key();
    }

    @Override
    public Slice keySlice() {
        return keys[heap[0]];
    }

    @Override
    public Slice valueSlice() {
        return children[heap[0]].valueSlice();
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

    private void rebuild(boolean toForward) {
        forward = toForward;
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
        keys[child] = children[child].keySlice();
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

    /**
     * Whether child a's entry comes out before child b's: by internal order, then child index, forward;
     * by the reverse of that backward.
     */
    private boolean less(int a, int b) {
        int c = keys[a].compareTo(keys[b]);
        if (c == 0) {
            c = Long.compare(sequences[b], sequences[a]);
            if (c == 0) {
                c = Integer.compare(a, b);
            }
        }
        return forward ? c < 0 : c > 0;
    }
}
