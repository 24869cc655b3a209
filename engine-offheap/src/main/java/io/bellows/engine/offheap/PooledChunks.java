package io.bellows.engine.offheap;

import io.bellows.engine.internal.memstore.spi.CountedMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * Chunks that go back to the pool together: a segment's data (an MSLAB) or its serialized index.
 * Reference-counted ({@link CountedMemory}): every MemStore state listing a segment that uses
 * them holds one reference, and readers hold states, so the chunks return to the pool only when no
 * reader can reach them.
 *
 * <p>Thread safety: one thread appends chunks (the writer of an active segment, or the builder of a
 * segment) before the memory is published with its segment; reference counts are atomic.
 */
abstract class PooledChunks extends CountedMemory {
    final ChunkPool pool;
    private final List<Chunk> chunks = new ArrayList<>();

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
    protected final void recycle() {
        for (Chunk c : chunks) {
            pool.give(c);
        }
        chunks.clear();
    }

    @Override
    protected final String what() {
        return "off-heap chunks";
    }
}
