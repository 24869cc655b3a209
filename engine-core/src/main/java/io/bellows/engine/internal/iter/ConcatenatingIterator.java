package io.bellows.engine.internal.iter;

/**
 * Iterates a sequence of children whose key ranges are disjoint and ascending as one sequence,
 * opening a child only when the iteration reaches it and closing it when it leaves (LevelDB's
 * two-level iterator). A leveled level concatenates its tables; an FLSM level its guards.
 *
 * <p>Thread safety: one thread at a time.
 */
public abstract class ConcatenatingIterator implements InternalIterator {
    private int index = -1;
    private InternalIterator current;

    protected abstract int childCount();

    /** The first child that may hold an entry at or after (userKey, sequence). */
    protected abstract int firstChildFor(byte[] userKey, long sequence);

    /** Opens child {@code i} (0 &lt;= i &lt; childCount()); the previous child is already closed. */
    protected abstract InternalIterator openChild(int i);

    /** Positions a just-opened child at (userKey, sequence). */
    protected void seekChild(InternalIterator child, byte[] userKey, long sequence) {
        child.seek(userKey, sequence);
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
    public final void next() {
        current.next();
        skipExhausted();
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
        if (i < childCount()) {
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
