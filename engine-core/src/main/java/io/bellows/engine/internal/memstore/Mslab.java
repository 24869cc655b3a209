package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.CountedMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * A MemStore-local allocation buffer (HBase's MSLAB): cells are copied into pooled chunks, value right
 * after key, so a segment's data is a few large arrays that are released together. A cell larger than
 * {@link #maxAllocation} gets an array of its own (never pooled): it would waste most of a chunk.
 *
 * <p>Thread safety: one thread copies into an MSLAB (the write leader for an active segment, the
 * compactor for its output); the chunks are published to readers with the segment. Reference counts
 * are atomic.
 */
final class Mslab extends CountedMemory {
    private final ChunkPool pool;
    private final int maxAllocation;
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int offset;

    /** Starts with one reference, the creator's. */
    Mslab(ChunkPool pool) {
        this.pool = pool;
        this.maxAllocation = pool.chunkSize() / 8;
    }

    Cell copyOf(Cell c) {
        return copy(c.keyBuf, c.keyOff, c.keyLen, c.valueBuf, c.valueOff, c.valueLen, c.sequence, c.kind);
    }

    /** Copies a cell from slices of the caller's buffers ({@code value} null for a tombstone). */
    Cell copy(byte[] key, int keyOff, int keyLen, byte[] value, int valueOff, int valueLen, long seq,
            int kind) {
        int size = keyLen + valueLen;
        byte[] buf;
        int at;
        if (size > maxAllocation) {
            buf = new byte[size];
            at = 0;
        } else {
            if (current == null || offset + size > current.length) {
                current = pool.take();
                chunks.add(current);
                offset = 0;
            }
            buf = current;
            at = offset;
            offset += size;
        }
        System.arraycopy(key, keyOff, buf, at, keyLen);
        if (value != null) {
            System.arraycopy(value, valueOff, buf, at + keyLen, valueLen);
        }
        return new Cell(buf, at, keyLen, value == null ? null : buf, at + keyLen, valueLen, seq, kind);
    }

    int chunks() {
        return chunks.size();
    }

    @Override
    protected void recycle() {
        for (byte[] c : chunks) {
            pool.give(c);
        }
        chunks.clear();
        current = null;
    }

    @Override
    protected String what() {
        return "MSLAB";
    }
}
