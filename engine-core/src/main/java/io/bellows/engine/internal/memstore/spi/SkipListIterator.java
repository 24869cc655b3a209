package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.internal.iter.InternalIterator;
import java.util.Iterator;
import java.util.NavigableSet;

/**
 * An iterator over a skiplist segment's navigable set of cells, for any cell type: it re-seeks by
 * taking a tail view from a probe, copies the key once per position and the value only when asked.
 *
 * @param <C> the layout's cell type
 */
public abstract class SkipListIterator<C> implements InternalIterator {
    private final NavigableSet<C> set;
    private Iterator<C> it;
    private C current;
    private byte[] key;
    private byte[] value;
    private boolean valueRead;

    protected SkipListIterator(NavigableSet<C> set) {
        this.set = set;
    }

    /** A cell ordering before every version of {@code key} newer than {@code sequence}. */
    protected abstract C probe(byte[] key, long sequence);

    protected abstract byte[] keyOf(C cell);

    /** The value of {@code cell}, null for a tombstone. */
    protected abstract byte[] valueOf(C cell);

    protected abstract long sequenceOf(C cell);

    protected abstract int kindOf(C cell);

    @Override
    public final boolean isValid() {
        return current != null;
    }

    @Override
    public final void seekToFirst() {
        it = set.iterator();
        advance();
    }

    @Override
    public final void seek(byte[] userKey, long sequence) {
        it = set.tailSet(probe(userKey, sequence), true).iterator();
        advance();
    }

    @Override
    public final void next() {
        advance();
    }

    private void advance() {
        current = it.hasNext() ? it.next() : null;
        key = current == null ? null : keyOf(current);
        value = null;
        valueRead = false;
    }

    @Override
    public final byte[] key() {
        return key;
    }

    @Override
    public final long sequence() {
        return sequenceOf(current);
    }

    @Override
    public final int kind() {
        return kindOf(current);
    }

    @Override
    public final byte[] value() {
        if (!valueRead) {
            value = valueOf(current);
            valueRead = true;
        }
        return value;
    }

    @Override
    public final void close() {
        current = null;
    }
}
