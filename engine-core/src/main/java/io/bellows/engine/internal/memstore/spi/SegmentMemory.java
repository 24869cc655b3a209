package io.bellows.engine.internal.memstore.spi;


/**
 * Memory a segment's cells live in, when it is not left to the garbage collector (MSLAB chunks; later
 * off-heap chunks). Reference-counted: each MemStore state that lists a segment holds one reference to
 * each of its memories, and a reader's view holds its state; the memory is recycled when the last
 * reference goes, so no chunk is reused while a cursor may still read it.
 */
public interface SegmentMemory {
    /** Adds a reference. REQUIRES: the caller already holds one, directly or through a pinned state. */
    void retain();

    /** Drops a reference; the last one recycles the memory. */
    void release();
}
