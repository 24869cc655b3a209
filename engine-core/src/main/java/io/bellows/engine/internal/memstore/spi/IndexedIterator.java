package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;

/**
 * An iterator over an immutable segment whose entries are numbered 0..size-1 in internal-key order
 * (a flat array or a serialized index), both ways: seeks by the segment's binary search, copies the key
 * and the value out only when asked for arrays, and hands out views ({@link #keyView}) otherwise.
 */
public abstract class IndexedIterator implements InternalIterator {
    private final int size;
    private int pos;
    private byte[] key;
    private byte[] value;
    private boolean valueRead;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();

    protected IndexedIterator(int size) {
        this.size = size;
        this.pos = size;
    }

    /** Number of the first entry at or after (key, sequence) in internal order, or the size. */
    protected abstract int ceiling(byte[] key, long sequence);

    protected abstract byte[] keyAt(int i);

    /** The value of entry i, null for a tombstone. */
    protected abstract byte[] valueAt(int i);

    protected abstract long sequenceAt(int i);

    protected abstract int kindAt(int i);

    /** Points {@code view} at the key of entry i; this default copies it out ({@link #keyAt}). */
    protected void keyView(int i, Slice view) {
        view.set(keyAt(i));
    }

    /** Points {@code view} at the value of entry i (empty for a tombstone); this default copies it out. */
    protected void valueView(int i, Slice view) {
        view.set(valueAt(i));
    }

    @Override
    public final boolean isValid() {
        return pos < size;
    }

    @Override
    public final void seekToFirst() {
        moveTo(0);
    }

    @Override
    public final void seek(byte[] userKey, long sequence) {
        moveTo(ceiling(userKey, sequence));
    }

    @Override
    public final void seekToLast() {
        moveTo(size - 1);
    }

    /** The entry before the ceiling of (key, sequence), unless the ceiling is that very entry. */
    @Override
    public final void seekForPrev(byte[] userKey, long sequence) {
        int i = ceiling(userKey, sequence);
        if (i < size && sequenceAt(i) == sequence) {
            moveTo(i);
            if (Arrays.equals(key(), userKey)) {
                return;
            }
        }
        moveTo(i - 1);
    }

    @Override
    public final void next() {
        moveTo(pos + 1);
    }

    @Override
    public final void prev() {
        moveTo(pos - 1);
    }

    /** Moves to entry i; any i outside [0, size) leaves the iterator invalid (at size). */
    private void moveTo(int i) {
        if (i < 0) {
            i = size;
        }
        pos = i;
        key = null;
        value = null;
        valueRead = false;
    }

    @Override
    public final byte[] key() {
        if (key == null) {
            key = keyAt(pos);
        }
        return key;
    }

    @Override
    public final Slice keySlice() {
        keyView(pos, keyView);
        return keyView;
    }

    @Override
    public final Slice valueSlice() {
        valueView(pos, valueView);
        return valueView;
    }

    @Override
    public final long sequence() {
        return sequenceAt(pos);
    }

    @Override
    public final int kind() {
        return kindAt(pos);
    }

    @Override
    public final byte[] value() {
        if (!valueRead) {
            value = valueAt(pos);
            valueRead = true;
        }
        return value;
    }

    @Override
    public final void close() {
        pos = size;
    }
}
