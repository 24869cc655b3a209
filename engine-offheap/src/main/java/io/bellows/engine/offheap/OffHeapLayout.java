package io.bellows.engine.offheap;

import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import java.util.List;

/**
 * The OFF_HEAP layout: active segments are skiplists over records in an off-heap MSLAB; flattening,
 * merging and compacting build {@link SerializedSegment}s, whose index is off-heap too. Every chunk
 * comes from one bounded {@link ChunkPool} per MemStore.
 */
final class OffHeapLayout implements SegmentLayout {
    private final ChunkPool pool;

    OffHeapLayout(ChunkPool pool) {
        this.pool = pool;
    }

    @Override
    public MutableSegment newMutable() {
        // Writers wait for chunks (a flush in progress returns them); they never fail over to the heap.
        return new OffHeapSkipListSegment(new OffHeapMslab(pool, true));
    }

    @Override
    public ImmutableSegment flatten(Segment segment) {
        return SerializedBuilder.flatten(pool, segment);
    }

    @Override
    public ImmutableSegment merge(List<Segment> segments) {
        return SerializedBuilder.merge(pool, segments);
    }

    @Override
    public Compacted compact(List<Segment> segments, Retention retention) {
        return SerializedBuilder.compact(pool, segments, retention);
    }

    @Override
    public boolean hasRoomFor(long bytes, long entries) {
        return pool.hasRoomFor(bytes, entries);
    }

    @Override
    public boolean canEverHold(long bytes, long entries) {
        return pool.canEverHold(bytes, entries);
    }

    @Override
    public long memoryLimit() {
        return pool.limit();
    }

    @Override
    public PoolStats poolStats() {
        return new PoolStats(pool.chunksInUse(), pool.chunksFree(), pool.allocatedBytes());
    }


    @Override
    public void close() {
        pool.close();
    }
}
