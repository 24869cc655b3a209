package io.bellows.engine.offheap;

import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chunks that go back to the pool together: a segment's data (an MSLAB) or its serialized index.
 * Reference-counted through {@link SegmentMemory}: every MemStore state listing a segment that uses
 * them holds one reference, and readers hold states, so the chunks return to the pool only when no
 * reader can reach them.
 *
 * <p>Thread safety: one thread appends chunks (the writer of an active segment, or the builder of a
 * segment) before the memory is published with its segment; reference counts are atomic.
 */
abstract class PooledChunks implements SegmentMemory {
    final ChunkPool pool;
    private final List<Chunk> chunks = new ArrayList<>();
    private final AtomicInteger refs = new AtomicInteger(1);

    /** Starts with one reference, the creator's. */
    PooledChunks(ChunkPool pool) {
        this.pool = pool;
    }

    /** Appends a chunk taken from the pool; returns its number within this memory. */
    final int add(Chunk c) {
        chunks.add(c);
        return chunks.size() - 1;
    }

    final Chunk chunk(int i) {
        return chunks.get(i);
    }

    final int chunkCount() {
        return chunks.size();
    }


    @Override
    public final void retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("off-heap chunks retained after they went back to the pool");
        }
    }

    @Override
    public final void release() {
        int n = refs.decrementAndGet();
        if (n == 0) {
            for (Chunk c : chunks) {
                pool.give(c);
            }
            chunks.clear();
        } else if (n < 0) {
            throw new IllegalStateException("off-heap chunks released more often than retained");
        }
    }

    /** References held now (tests check that every path gives its own back). */
    final int references() {
        return refs.get();
    }
}
