package io.bellows.engine.memstore;

import io.bellows.engine.EngineOptions;

/** Creates the MemStore an engine's options ask for. */
public final class MemStores {
    /** Smallest MSLAB chunk: below it a chunk's tail waste and pool traffic outweigh the gain. */
    static final int MIN_CHUNK = 4096;

    private MemStores() {}

    public static MemStore create(EngineOptions options, MemStoreContext context) {
        switch (options.inMemoryCompaction()) {
            case NONE:
                return new DefaultMemStore(options.memstoreSize());
            case BASIC:
            case EAGER:
            case ADAPTIVE:
                ChunkPool pool = options.mslab() ? chunkPool(options) : null;
                return new CompactingMemStore(options.inMemoryCompaction(), options.memstoreSize(),
                        options.activeSegmentFraction(), options.pipelineSegments(), options.adaptiveThreshold(), pool,
                        context);
            default:
                throw new IllegalArgumentException("in-memory compaction " + options.inMemoryCompaction()
                        + " is not available");
        }
    }

    /**
     * The chunk size is the configured one, but at most a quarter of an active segment: each segment
     * leaves its last chunk partly empty, and merged segments keep their chunks until the disk flush.
     * The pool keeps enough chunks for a full MemStore plus the snapshot being flushed.
     */
    static ChunkPool chunkPool(EngineOptions options) {
        long active = (long) (options.memstoreSize() * options.activeSegmentFraction());
        int size = (int) Math.max(MIN_CHUNK, Math.min(options.mslabChunkSize(), active / 4));
        int pooled = (int) Math.min(1 << 16, 2 * options.memstoreSize() / size + 4);
        return new ChunkPool(size, pooled);
    }
}
