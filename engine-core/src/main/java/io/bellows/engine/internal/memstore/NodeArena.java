package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The memory of an {@link InlineSkipListSegment}: nodes laid out in pooled byte-array chunks (the MSLAB's
 * chunks), each at an 8-aligned offset, addressed by a long (chunk index in the high half, offset in the
 * low). A node larger than an eighth of a chunk gets an array of its own, never pooled, as the MSLAB gives
 * a large cell. Address 0 is never a node (chunk index 0 is left empty), so it serves as null.
 *
 * <p>Thread safety: one thread allocates (the segment's single writer). Readers resolve addresses they
 * obtained through a release-store of the writer, which happens after the chunk was entered in the table,
 * so the table they read (volatile) holds it. Reference counts are atomic; the chunks go back to the pool
 * when the last reference is released.
 */
final class NodeArena implements SegmentMemory {
    static final long NULL = 0;

    private final ChunkPool pool;
    private final int maxAllocation;
    private volatile byte[][] chunks = new byte[16][];
    private int chunkCount = 1;
    private final List<byte[]> pooled = new ArrayList<>();
    private byte[] current;
    private int currentIndex;
    private int offset;
    /** Bytes of the nodes allocated so far (aligned); written by the writer, read by stats racily. */
    private volatile long used;
    private final AtomicInteger refs = new AtomicInteger(1);

    /** Starts with one reference, the creator's. */
    NodeArena(ChunkPool pool) {
        this.pool = pool;
        this.maxAllocation = pool.chunkSize() / 8;
    }

    /** The address of {@code size} fresh bytes, 8-aligned. Writer only. */
    long allocate(int size) {
        int aligned = (size + 7) & ~7;
        used += aligned;
        if (aligned > maxAllocation) {
            byte[] own = new byte[aligned];
            return address(register(own), 0);
        }
        if (current == null || offset + aligned > current.length) {
            current = pool.take();
            pooled.add(current);
            currentIndex = register(current);
            offset = 0;
        }
        long a = address(currentIndex, offset);
        offset += aligned;
        return a;
    }

    private int register(byte[] chunk) {
        byte[][] table = chunks;
        if (chunkCount == table.length) {
            table = Arrays.copyOf(table, 2 * table.length);
            table[chunkCount] = chunk;
            chunks = table;
        } else {
            table[chunkCount] = chunk;
        }
        return chunkCount++;
    }

    private static long address(int chunk, int offset) {
        return ((long) chunk << 32) | offset;
    }

    /** The array holding the node at {@code address}. */
    byte[] chunk(long address) {
        return chunks[(int) (address >>> 32)];
    }

    static int offset(long address) {
        return (int) address;
    }

    /** Bytes of the nodes in it, which grow with every entry (the MemStore's flush trigger reads this). */
    long usedBytes() {
        return used;
    }

    @Override
    public void retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("node arena retained after its chunks were recycled");
        }
    }

    @Override
    public void release() {
        int n = refs.decrementAndGet();
        if (n == 0) {
            for (byte[] c : pooled) {
                pool.give(c);
            }
            pooled.clear();
            current = null;
        } else if (n < 0) {
            throw new IllegalStateException("node arena released more often than retained");
        }
    }
}
