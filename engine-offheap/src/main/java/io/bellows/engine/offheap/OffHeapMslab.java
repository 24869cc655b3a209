package io.bellows.engine.offheap;

import io.netty.buffer.ByteBuf;

/**
 * An off-heap MemStore-local allocation buffer: cells are appended to pooled data chunks as records
 * (docs/formats/offheap-memstore.md):
 *
 * <pre>
 *   u16 keyLength | i32 valueLength | key | value
 * </pre>
 *
 * A cell whose record exceeds an eighth of a chunk gets a jumbo chunk of its own, so one large value
 * never wastes most of a chunk. Sequence and kind are not in the record: the skiplist cell object or
 * the serialized index entry that points at the record carries them.
 *
 * <p>Thread safety: one thread appends (the write leader for an active segment, the compactor for its
 * output); see {@link PooledChunks}.
 */
final class OffHeapMslab extends PooledChunks {
    /** Bytes of a record before its key. */
    static final int HEADER = 6;

    private final boolean waitForChunks;
    private final int maxAllocation;
    private Chunk current;
    private int currentNo;
    private int offset;
    /** Set by {@link #append}: the chunk number and offset of the record just written. */
    int lastChunkNo;
    int lastOffset;

    /**
     * @param waitForChunks writers wait for chunks when the pool is exhausted; compactions fail at once
     */
    OffHeapMslab(ChunkPool pool, boolean waitForChunks) {
        super(pool);
        this.waitForChunks = waitForChunks;
        this.maxAllocation = pool.dataChunkSize() / 8;
    }

    /**
     * Appends one record from slices of heap arrays (straight from the write batch); its position is
     * left in {@link #lastChunkNo} and {@link #lastOffset}, and the chunk returned.
     */
    ByteBuf append(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen) {
        ByteBuf b = reserve(HEADER + keyLen + valueLen);
        int at = lastOffset;
        b.setShort(at, keyLen);
        b.setInt(at + 2, valueLen);
        b.setBytes(at + HEADER, key, keyOff, keyLen);
        if (valueLen > 0) {
            b.setBytes(at + HEADER + keyLen, value, valueOff, valueLen);
        }
        return b;
    }

    /** Copies the record at {@code offset} of {@code src} (a compaction's survivor). */
    ByteBuf copy(ByteBuf src, int offset) {
        int size = recordSize(src, offset);
        ByteBuf b = reserve(size);
        b.setBytes(lastOffset, src, offset, size);
        return b;
    }

    private ByteBuf reserve(int size) {
        if (size > maxAllocation) {
            Chunk jumbo = pool.takeJumbo(size, waitForChunks);
            lastChunkNo = add(jumbo);
            lastOffset = 0;
            return jumbo.buf;
        }
        if (current == null || offset + size > current.capacity) {
            current = pool.takeData(waitForChunks);
            currentNo = add(current);
            offset = 0;
        }
        lastChunkNo = currentNo;
        lastOffset = offset;
        offset += size;
        return current.buf;
    }

    static int keyLength(ByteBuf b, int record) {
        return b.getUnsignedShort(record);
    }

    static int valueLength(ByteBuf b, int record) {
        return b.getInt(record + 2);
    }

    static int recordSize(ByteBuf b, int record) {
        return HEADER + keyLength(b, record) + valueLength(b, record);
    }
}
