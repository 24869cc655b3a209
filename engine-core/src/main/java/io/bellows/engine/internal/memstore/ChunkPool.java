package io.bellows.engine.internal.memstore;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fixed-size on-heap chunks for MSLABs, recycled so that a MemStore that flushes at a steady rate
 * allocates its chunks once: they live long enough to be tenured, and reusing them keeps the old
 * generation from filling with the small dead cells of flushed segments.
 *
 * <p>Thread safety: lock-free; any thread may take or give chunks.
 */
final class ChunkPool {
    private final int chunkSize;
    private final int maxPooled;
    private final ConcurrentLinkedDeque<byte[]> free = new ConcurrentLinkedDeque<>();
    private final AtomicInteger pooled = new AtomicInteger();
    private final AtomicInteger inUse = new AtomicInteger();

    /**
     * @param chunkSize bytes per chunk
     * @param maxPooled chunks kept for reuse; chunks given back beyond that are left to the collector
     */
    ChunkPool(int chunkSize, int maxPooled) {
        this.chunkSize = chunkSize;
        this.maxPooled = maxPooled;
    }

    int chunkSize() {
        return chunkSize;
    }

    byte[] take() {
        inUse.incrementAndGet();
        byte[] c = free.pollFirst();
        if (c != null) {
            pooled.decrementAndGet();
            return c;
        }
        return new byte[chunkSize];
    }

    void give(byte[] chunk) {
        inUse.decrementAndGet();
        if (pooled.incrementAndGet() <= maxPooled) {
            free.addFirst(chunk);
        } else {
            pooled.decrementAndGet();
        }
    }

    /** Chunks kept for reuse. */
    int chunksFree() {
        return pooled.get();
    }

    /** Chunks held by live MSLABs. */
    int chunksInUse() {
        return inUse.get();
    }
}
