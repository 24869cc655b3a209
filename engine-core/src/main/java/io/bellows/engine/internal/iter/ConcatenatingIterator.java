package io.bellows.engine.internal.iter;

/**
 * Iterates a sequence of children whose key ranges are disjoint and ascending as one sequence, in
 * either direction, opening a child only when the iteration reaches it and closing it when it leaves
 * (LevelDB's two-level iterator). A leveled level concatenates its tables; an FLSM level its guards.
 *
 * <p>Thread safety: one thread at a time.
 */
public abstract class ConcatenatingIterator implements InternalIterator {
    private int index = -1;
    private InternalIterator current;

    protected abstract int childCount();

    /** The first child that may hold an entry at or after (userKey, sequence). */
    protected abstract int firstChildFor(byte[] userKey, long sequence);

    /** The last child that may hold an entry at or before (userKey, sequence); -1 if none can. */
    protected abstract int lastChildFor(byte[] userKey, long sequence);

    /** Opens child {@code i} (0 &lt;= i &lt; childCount()); the previous child is already closed. */
    protected abstract InternalIterator openChild(int i);

    /** Positions a just-opened child at (userKey, sequence). */
    protected void seekChild(InternalIterator child, byte[] userKey, long sequence) {
        child.seek(userKey, sequence);
    }

    /** Positions a just-opened child at the last entry at or before (userKey, sequence). */
    protected void seekChildForPrev(InternalIterator child, byte[] userKey, long sequence) {
        child.seekForPrev(userKey, sequence);
    }

    @Override
    public final boolean isValid() {
        return current != null && current.isValid();
    }

    @Override
    public final void seekToFirst() {
        open(0);
        if (current != null) {
            current.seekToFirst();
        }
        skipExhausted();
    }

    @Override
    public final void seek(byte[] userKey, long sequence) {
        open(firstChildFor(userKey, sequence));
        if (current != null) {
            seekChild(current, userKey, sequence);
        }
        skipExhausted();
    }

    @Override
    public final void seekToLast() {
        open(childCount() - 1);
        if (current != null) {
            current.seekToLast();
        }
        skipExhaustedBackward();
    }

    @Override
    public final void seekForPrev(byte[] userKey, long sequence) {
        open(lastChildFor(userKey, sequence));
        if (current != null) {
            seekChildForPrev(current, userKey, sequence);
        }
        skipExhaustedBackward();
    }

    @Override
    public final void next() {
        current.next();
        skipExhausted();
    }

    @Override
    public final void prev() {
        current.prev();
        skipExhaustedBackward();
    }

    private void skipExhaustedBackward() {
        while (current != null && !current.isValid()) {
            open(index - 1);
            if (current != null) {
                current.seekToLast();
            }
        }
    }

    private void skipExhausted() {
        while (current != null && !current.isValid()) {
            open(index + 1);
            if (current != null) {
                current.seekToFirst();
            }
        }
    }

    private void open(int i) {
        if (i == index && current != null) {
            return;
        }
        closeCurrent();
        index = i;
        if (i >= 0 && i < childCount()) {
            current = openChild(i);
        }
    }

    private void closeCurrent() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    @Override
    public final byte[] key() {
        return current.key();
    }

    @Override
    public final Slice keySlice() {
        return current.keySlice();
    }

    @Override
    public final Slice valueSlice() {
        return current.valueSlice();
    }

    @Override
    public final long sequence() {
        return current.sequence();
    }

    @Override
    public final int kind() {
        return current.kind();
    }

    @Override
    public final byte[] value() {
        return current.value();
    }

    @Override
    public void close() {
        closeCurrent();
    }
}
