package io.bellows.engine.internal.memstore.spi;

import java.util.List;

/**
 * How a MemStore lays out its segments in memory (a {@link io.bellows.engine.MemoryLayout}): it makes
 * the mutable segment and builds every immutable one, so the MemStores' policies, pipeline and
 * reference counting are the same for every layout. engine-core has the on-heap layout; the off-heap
 * one plugs in through {@link SegmentLayoutProvider}.
 *
 * <p>Reference contract: every segment a layout returns holds one reference on each of its
 * {@link Segment#memory() memories} for the caller, who drops them once a MemStore state holds its own
 * (or to discard the segment). Inputs to {@link #flatten}, {@link #merge} and {@link #compact} must be
 * pinned by the caller for the duration of the call; outputs may share their memory.
 *
 * <p>Thread safety: the methods may be called from the writer and the compaction thread at once.
 */
public interface SegmentLayout extends AutoCloseable {
    /** A new empty segment to take writes. */
    MutableSegment newMutable();

    /** An immutable form of {@code segment} (made by this layout) over the same cells; copies no cell data. */
    ImmutableSegment flatten(Segment segment);

    /** One immutable segment over all cells of {@code segments}, newest first; copies and drops nothing. */
    ImmutableSegment merge(List<Segment> segments);

    /**
     * Merges {@code segments} (newest first), keeping the versions {@code retention} keeps, into fresh
     * memory, so the inputs' memory can be recycled once the result replaces them.
     *
     * @throws io.bellows.engine.MemoryLimitException if the layout's memory cannot hold the result now
     */
    Compacted compact(List<Segment> segments, Retention retention);

    /** See {@code MemStore.hasRoomFor(long, long)}. */
    default boolean hasRoomFor(long bytes, long entries) {
        return true;
    }

    /** See {@code MemStore.canEverHold(long, long)}. */
    default boolean canEverHold(long bytes, long entries) {
        return true;
    }

    /** See {@code MemStore.memoryLimit()}. */
    default long memoryLimit() {
        return Long.MAX_VALUE;
    }

    /** Chunk counts and off-heap bytes of the layout's pool. */
    PoolStats poolStats();

    /** Releases pooled memory; memory still held by segments is released when they let it go. */
    @Override
    void close();

    /** A snapshot of a layout's chunk pool. */
    record PoolStats(long chunksInUse, long chunksFree, long offHeapBytes) {
        public static final PoolStats NONE = new PoolStats(0, 0, 0);
    }
}
