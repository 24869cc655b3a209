package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import java.util.List;

/**
 * The unit of MemStore memory (Accordion's segment): a set of cells in internal-key order with its own
 * size accounting. The mutable skiplist segment takes writes; immutable segments only serve reads.
 *
 * <p>Thread safety: reads may run concurrently with each other and with writes to a mutable segment.
 */
public interface Segment {
    /** Finds the newest entry of {@code key} with sequence {@code <= seq}; fills {@code out} if found. */
    boolean get(byte[] key, long seq, Lookup out);

    InternalIterator iterator();

    /** Key and value bytes held. */
    long dataSize();

    /** Estimated heap held: data plus index and object overhead, for what lives on the heap. */
    long heapSize();

    /** Off-heap bytes held: cell data, record headers and index entries kept outside the heap. */
    default long offHeapSize() {
        return 0;
    }

    long entries();

    /** Tombstones among the entries. */
    long deletions();

    /** Lowest sequence held, or Long.MAX_VALUE when empty. */
    long minSequence();

    /** Highest sequence held, or 0 when empty. */
    long maxSequence();

    /** How the segment indexes its cells ("skiplist", "flat", "serialized"), for metrics by segment kind. */
    String kind();

    /**
     * The memories the segment's cells live in, which must stay allocated while any state or view lists
     * the segment; empty when the cells are left to the garbage collector.
     */
    default List<SegmentMemory> memory() {
        return List.of();
    }
}
