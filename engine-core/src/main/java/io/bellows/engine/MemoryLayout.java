package io.bellows.engine;

/**
 * Where the MemStore keeps its cells and indices (Accordion §3.4). It may differ between opens of the
 * same store: nothing on disk depends on it. See docs/tuning.md for how to choose.
 */
public enum MemoryLayout {
    /**
     * Everything on the Java heap: a skiplist of cell objects for the active segment, sorted arrays of
     * cell objects for flat segments, and (with {@code mslab}) cell bytes in pooled byte-array chunks.
     */
    ON_HEAP,
    /**
     * Cell bytes of every segment in off-heap chunks drawn from a bounded netty-buffer pool, and
     * immutable segments serialized: their index is written into off-heap chunks too, one 16-byte entry
     * per cell pointing straight at its data, with no Java object per cell. Only the small active
     * segment keeps a skiplist of cell objects. Needs {@code io.bellows:engine-offheap} on the class
     * path; opening without it is an error that says so.
     */
    OFF_HEAP
}
