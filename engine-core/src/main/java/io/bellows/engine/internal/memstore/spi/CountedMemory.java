package io.bellows.engine.internal.memstore.spi;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Segment memory with an atomic reference count that starts at one (the creator's) and recycles the
 * memory when the last reference goes: the MSLAB, NONE's node arena and the off-heap chunk sets share
 * this rule. A retain after the count reached zero, or a release below it, is a bug in a caller and throws.
 */
public abstract class CountedMemory implements SegmentMemory {
    private final AtomicInteger refs = new AtomicInteger(1);

    /** Gives the memory back (to its pool); called once, by the release that took the count to zero. */
    protected abstract void recycle();

    /** What this memory is, for the messages of a miscounted reference ("MSLAB", "off-heap chunks"). */
    protected abstract String what();

    /** References held now (tests check that every path gives its own back). */
    public final int references() {
        return refs.get();
    }

    @Override
    public final void retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException(what() + " retained after its memory was recycled");
        }
    }

    @Override
    public final void release() {
        int n = refs.decrementAndGet();
        if (n == 0) {
            recycle();
        } else if (n < 0) {
            throw new IllegalStateException(what() + " released more often than retained");
        }
    }
}
