package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import java.util.Iterator;
import java.util.NavigableSet;

/**
 * An iterator over a skiplist segment's navigable set of cells, for any cell type: it re-seeks by
 * taking a tail view from a probe (a descending head view backward, and a view from the current cell
 * when the direction changes), copies the key and the value out only when asked for arrays, and hands out
 * views ({@link #keyView}) otherwise.
 *
 * @param <C> the layout's cell type
 */
public abstract class SkipListIterator<C> implements InternalIterator {
    private final NavigableSet<C> set;
    private Iterator<C> it;
    private C current;
    /** Whether {@link #it} walks up; a change of direction re-derives it from {@link #current}. */
    private boolean forward = true;
    private byte[] key;
    private byte[] value;
    private boolean valueRead;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();

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

    /** Points {@code view} at the key of {@code cell}; this default copies it out ({@link #keyOf}). */
    protected void keyView(C cell, Slice view) {
        view.set(keyOf(cell));
    }

    /** Points {@code view} at the value of {@code cell} (empty for a tombstone); this default copies it out. */
    protected void valueView(C cell, Slice view) {
        view.set(valueOf(cell));
    }

    @Override
    public final boolean isValid() {
        return current != null;
    }

    @Override
    public final void seekToFirst() {
        it = set.iterator();
        forward = true;
        advance();
    }

    @Override
    public final void seek(byte[] userKey, long sequence) {
        it = set.tailSet(probe(userKey, sequence), true).iterator();
        forward = true;
        advance();
    }

    @Override
    public final void seekToLast() {
        it = set.descendingIterator();
        forward = false;
        advance();
    }

    /** The probe compares equal to a cell of the same key and sequence, so the inclusive head view ends there. */
    @Override
    public final void seekForPrev(byte[] userKey, long sequence) {
        it = set.headSet(probe(userKey, sequence), true).descendingIterator();
        forward = false;
        advance();
    }

    @Override
    public final void next() {
        if (!forward) {
            it = set.tailSet(current, false).iterator();
            forward = true;
        }
        advance();
    }

    @Override
    public final void prev() {
        if (forward) {
            it = set.headSet(current, false).descendingIterator();
            forward = false;
        }
        advance();
    }

    private void advance() {
        current = it.hasNext() ? it.next() : null;
        key = null;
        value = null;
        valueRead = false;
    }

    @Override
    public final byte[] key() {
        if (key == null) {
            key = keyOf(current);
        }
        return key;
    }

    @Override
    public final Slice keySlice() {
        keyView(current, keyView);
        return keyView;
    }

    @Override
    public final Slice valueSlice() {
        valueView(current, valueView);
        return valueView;
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
