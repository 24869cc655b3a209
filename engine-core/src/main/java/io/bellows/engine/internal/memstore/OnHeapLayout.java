package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.List;

/**
 * The ON_HEAP layout: skiplist active segments, flat segments (sorted arrays of cell objects), and cell
 * bytes either in arrays of their own or, with an MSLAB pool, in recycled byte-array chunks.
 */
final class OnHeapLayout implements SegmentLayout {
    /** Null: every cell keeps its own arrays. */
    private final ChunkPool pool;
    private final boolean policyCompacts;

    /** @param policyCompacts whether the MemStore flattens and merges segments (not NONE) */
    OnHeapLayout(ChunkPool pool, boolean policyCompacts) {
        this.pool = pool;
        this.policyCompacts = policyCompacts;
    }

    @Override
    public MutableSegment newMutable() {
        if (pool == null) {
            return new SkipListSegment();
        }
        // NONE's one segment holds the whole MemStore, where a search step's cache misses dominate a put, so
        // its nodes are inline in the chunks. A compacting policy's active segment is small and flattened
        // into cells, which a map of cells hands over without copying.
        return policyCompacts ? new SkipListSegment(new Mslab(pool)) : new InlineSkipListSegment(new NodeArena(pool));
    }

    @Override
    public ImmutableSegment flatten(Segment segment) {
        return withCallerReferences(SegmentBuilder.flatten(segment));
    }

    @Override
    public ImmutableSegment merge(List<Segment> segments) {
        return withCallerReferences(SegmentBuilder.merge(segments));
    }

    @Override
    public Compacted compact(List<Segment> segments, Retention retention) {
        // The new MSLAB starts with one reference: the caller's.
        return SegmentBuilder.compact(segments, retention, pool == null ? null : new Mslab(pool));
    }

    /** A flat segment over its inputs' memory takes the caller's reference on each of them. */
    private static FlatSegment withCallerReferences(FlatSegment s) {
        for (SegmentMemory m : s.memory()) {
            m.retain();
        }
        return s;
    }

    @Override
    public PoolStats poolStats() {
        return pool == null ? PoolStats.NONE : new PoolStats(pool.chunksInUse(), pool.chunksFree(), 0);
    }

    @Override
    public void close() {
        // Byte-array chunks are left to the garbage collector.
    }
}
