package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;

/**
 * An iterator over an {@link InlineSkipListSegment}: a node address. Moving forward follows level-0
 * links; moving back searches for the predecessor (nodes have no back links, as in LevelDB). Keys and
 * values are views into the segment's chunks, valid as long as the segment's memory is held; arrays are
 * copied out only when asked for.
 */
final class InlineSkipListIterator implements InternalIterator {
    private final InlineSkipListSegment list;
    private long node = NodeArena.NULL;
    private long meta;
    private long sequence;
    /** The array holding the entry's key, then its value, from {@link #at}. */
    private byte[] data;
    private int at;
    private byte[] key;
    private byte[] value;
    private boolean valueRead;
    private final Slice keyView = new Slice();
    private final Slice valueView = new Slice();

    InlineSkipListIterator(InlineSkipListSegment list) {
        this.list = list;
    }

    private void moveTo(long n) {
        node = n;
        key = null;
        value = null;
        valueRead = false;
        if (n == NodeArena.NULL) {
            data = null;
        } else {
            meta = list.meta(n);
            sequence = list.sequence(n);
            long d = list.dataAddress(n);
            data = list.data(d);
            at = NodeArena.offset(d);
        }
    }

    @Override
    public boolean isValid() {
        return node != NodeArena.NULL;
    }

    @Override
    public void seekToFirst() {
        moveTo(list.first());
    }

    @Override
    public void seek(byte[] userKey, long sequence) {
        moveTo(list.seek(userKey, 0, userKey.length, sequence));
    }

    @Override
    public void seekToLast() {
        moveTo(list.last());
    }

    @Override
    public void seekForPrev(byte[] userKey, long sequence) {
        moveTo(list.seekBefore(userKey, 0, userKey.length, sequence, true));
    }

    @Override
    public void next() {
        moveTo(list.after(node));
    }

    @Override
    public void prev() {
        moveTo(list.before(node));
    }

    @Override
    public byte[] key() {
        if (key == null) {
            key = Arrays.copyOfRange(data, at, at + InlineSkipListSegment.keyLength(meta));
        }
        return key;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public int kind() {
        return InlineSkipListSegment.kind(meta);
    }

    @Override
    public byte[] value() {
        if (!valueRead) {
            int vl = InlineSkipListSegment.valueLength(meta);
            if (vl >= 0) {
                int v = at + InlineSkipListSegment.keyLength(meta);
                value = Arrays.copyOfRange(data, v, v + vl);
            }
            valueRead = true;
        }
        return value;
    }

    @Override
    public Slice keySlice() {
        keyView.set(data, at, InlineSkipListSegment.keyLength(meta));
        return keyView;
    }

    @Override
    public Slice valueSlice() {
        int vl = InlineSkipListSegment.valueLength(meta);
        if (vl < 0) {
            valueView.set(null);
        } else {
            valueView.set(data, at + InlineSkipListSegment.keyLength(meta), vl);
        }
        return valueView;
    }

    @Override
    public void close() {
        moveTo(NodeArena.NULL);
    }
}
