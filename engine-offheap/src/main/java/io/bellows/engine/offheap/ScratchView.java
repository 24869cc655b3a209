package io.bellows.engine.offheap;

import io.bellows.engine.internal.iter.Slice;
import io.netty.buffer.ByteBuf;

/**
 * An iterator's view of bytes that live off the heap: they are copied into a scratch array the
 * iterator reuses (grown, never shrunk), so a merge over off-heap segments copies each key and value
 * once but allocates nothing per entry. Valid until the next copy, i.e. until the iterator moves.
 */
final class ScratchView {
    private byte[] scratch;

    ScratchView(int initialCapacity) {
        scratch = new byte[initialCapacity];
    }

    /** Points the view at a copy of {@code b[off, off + len)}. */
    void copy(ByteBuf b, int off, int len, Slice out) {
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, 2 * scratch.length)];
        }
        b.getBytes(off, scratch, 0, len);
        out.set(scratch, 0, len);
    }
}
