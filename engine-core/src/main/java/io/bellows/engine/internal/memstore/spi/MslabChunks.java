package io.bellows.engine.internal.memstore.spi;

import io.bellows.engine.EngineOptions;

/** MSLAB chunk sizing, shared by every layout so that their chunks are cut alike. */
public final class MslabChunks {
    /** Smallest MSLAB chunk: below it a chunk's tail waste and pool traffic outweigh the gain. */
    public static final int MIN_CHUNK = 4096;

    private MslabChunks() {}

    /**
     * The chunk size an MSLAB uses: the configured one, but at most a quarter of an active segment (each
     * segment leaves its last chunk partly empty, and merged segments keep their chunks until the disk
     * flush), and never below {@link #MIN_CHUNK}.
     */
    public static int size(EngineOptions options, boolean policyCompacts) {
        long active = policyCompacts ? (long) (options.memstoreSize() * options.activeSegmentFraction())
                : options.memstoreSize();
        return (int) Math.max(MIN_CHUNK, Math.min(options.mslabChunkSize(), active / 4));
    }

}
