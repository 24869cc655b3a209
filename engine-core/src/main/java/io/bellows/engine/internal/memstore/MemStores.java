package io.bellows.engine.internal.memstore;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.memstore.spi.MslabChunks;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import io.bellows.engine.internal.memstore.spi.SegmentLayoutProvider;
import java.util.ServiceLoader;

/** Creates the MemStore an engine's options ask for. */
public final class MemStores {
    private MemStores() {}

    public static MemStore create(EngineOptions options, MemStoreContext context) {
        InMemoryCompaction policy = options.inMemoryCompaction();
        SegmentLayout layout = layout(options, policy != InMemoryCompaction.NONE);
        try {
            switch (policy) {
                case NONE:
                    return new DefaultMemStore(options.memstoreSize(), layout);
                case BASIC:
                case EAGER:
                case ADAPTIVE:
                    return new CompactingMemStore(policy, options.memstoreSize(), options.activeSegmentFraction(),
                            options.pipelineSegments(), options.adaptiveThreshold(), layout, context);
                default:
                    throw new IllegalArgumentException("in-memory compaction " + policy + " is not available");
            }
        } catch (RuntimeException | Error e) {
            layout.close();
            throw e;
        }
    }

    /**
     * The layout for one MemStore. ON_HEAP is built in: with an MSLAB, NONE's arena skiplist keeps its keys
     * and values in its chunks and the compacting policies' cells are copied into them. Other layouts come from a
     * {@link SegmentLayoutProvider} on the class path, and their absence is an error, never a fallback.
     */
    static SegmentLayout layout(EngineOptions options, boolean policyCompacts) {
        MemoryLayout wanted = options.memoryLayout();
        if (wanted == MemoryLayout.ON_HEAP) {
            return new OnHeapLayout(options.mslab() ? chunkPool(options, policyCompacts) : null, policyCompacts);
        }
        for (SegmentLayoutProvider p : ServiceLoader.load(SegmentLayoutProvider.class,
                MemStores.class.getClassLoader())) {
            if (p.layout() == wanted) {
                return p.create(options, policyCompacts);
            }
        }
        throw new IllegalStateException("memory layout " + wanted + " needs the io.bellows:engine-offheap module"
                + " on the class path (no " + SegmentLayoutProvider.class.getName() + " for it was found)");
    }

    /** The pool keeps enough chunks for a full MemStore plus the snapshot being flushed. */
    static ChunkPool chunkPool(EngineOptions options, boolean policyCompacts) {
        int size = MslabChunks.size(options, policyCompacts);
        int pooled = (int) Math.min(1 << 16, 2 * options.memstoreSize() / size + 4);
        return new ChunkPool(size, pooled);
    }
}
