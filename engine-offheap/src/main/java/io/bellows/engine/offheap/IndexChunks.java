package io.bellows.engine.offheap;

import io.netty.buffer.ByteBuf;

/**
 * The serialized index of one segment, written once by its builder into pooled index chunks
 * (docs/formats/offheap-memstore.md). Entry i lives in chunk {@code i >>> shift} at
 * {@code (i & mask) * ENTRY}:
 *
 * <pre>
 *   i32 chunkNo | i32 recordOffset | i64 trailer (sequence << 8 | kind)
 * </pre>
 *
 * where chunkNo indexes the segment's table of data chunks. 16 bytes per cell and no Java object:
 * HBase's CellChunkMap takes 20, then a hash lookup and a new cell object per probe; here a probe is
 * two array loads and reads in place.
 */
final class IndexChunks extends PooledChunks {
    static final int ENTRY = 16;

    private final boolean waitForChunks;
    private final int shift;
    private final int mask;
    /** The chunks as an array, filled in by {@link #seal()} for lock-free reads. */
    private ByteBuf[] sealed;
    private ByteBuf current;
    private int count;

    IndexChunks(ChunkPool pool, boolean waitForChunks) {
        super(pool);
        this.waitForChunks = waitForChunks;
        int perChunk = pool.indexChunkSize() / ENTRY;
        this.shift = Integer.numberOfTrailingZeros(perChunk);
        this.mask = perChunk - 1;
    }

    void append(int chunkNo, int record, long trailer) {
        int at = (count & mask) * ENTRY;
        if (at == 0) {
            Chunk c = pool.takeIndex(waitForChunks);
            add(c);
            current = c.buf;
        }
        current.setInt(at, chunkNo);
        current.setInt(at + 4, record);
        current.setLong(at + 8, trailer);
        count++;
    }

    /** Ends writing; the index is then read-only and safe to publish with its segment. */
    void seal() {
        ByteBuf[] a = new ByteBuf[chunkCount()];
        for (int i = 0; i < a.length; i++) {
            a[i] = chunk(i).buf;
        }
        sealed = a;
        current = null;
    }

    int count() {
        return count;
    }

    int chunkNo(int i) {
        return sealed[i >>> shift].getInt((i & mask) * ENTRY);
    }

    int record(int i) {
        return sealed[i >>> shift].getInt((i & mask) * ENTRY + 4);
    }

    long trailer(int i) {
        return sealed[i >>> shift].getLong((i & mask) * ENTRY + 8);
    }
}
