package io.bellows.engine.offheap;

import io.bellows.engine.MemoryLimitException;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded pool of off-heap chunks behind one OFF_HEAP MemStore: fixed-size data chunks (the MSLAB
 * chunk size), fixed-size index chunks for serialized segments, and jumbo chunks sized to one cell too
 * large for a data chunk. Returned data and index chunks are kept for reuse up to a bound, so a MemStore
 * that flushes at a steady rate allocates its chunks once; the rest go back to the allocator.
 *
 * <p>Every byte allocated from the allocator (chunks in use and free) counts against the limit. When
 * it is reached, writers wait for a flush or a compaction to return chunks (backpressure) and give up
 * with a {@link MemoryLimitException} after {@code writerWaitNanos}; compactions give up at once, since
 * theirs is optional work that must never hold back a flush. Jumbo chunks are off-heap too and are
 * counted as such (HBase allocates them on the heap yet counts them off-heap).
 *
 * <p>Thread safety: one lock guards the free lists and counters. It is taken once per chunk (per
 * megabytes of cells), never per cell.
 */
final class ChunkPool implements AutoCloseable {
    private final ByteBufAllocator allocator;
    private final String allocatorName;
    private final int dataChunkSize;
    private final int indexChunkSize;
    private final long limit;
    private final long maxFreeBytes;
    private final long writerWaitNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition returned = lock.newCondition();
    private final ArrayDeque<Chunk> freeData = new ArrayDeque<>();
    private final ArrayDeque<Chunk> freeIndex = new ArrayDeque<>();
    private long allocatedBytes;
    private long freeBytes;
    private long inUse;
    /**
     * Room promised to the write group last found to fit ({@link #hasRoomFor}): the engine logs the
     * group before it adds it, so a compaction, which may run in between, must leave this room.
     */
    private long writerReserve;
    private boolean closed;

    /**
     * @param allocator where chunks come from and go back to
     * @param dataChunkSize bytes per data chunk
     * @param indexChunkSize bytes per index chunk; a power of two
     * @param limit most bytes allocated at once
     * @param maxFreeBytes most bytes kept for reuse; 0 returns every chunk to the allocator at once
     * @param writerWaitNanos how long a writer waits for a chunk before failing
     */
    ChunkPool(ByteBufAllocator allocator, String allocatorName, int dataChunkSize, int indexChunkSize, long limit,
            long maxFreeBytes, long writerWaitNanos) {
        if (Integer.bitCount(indexChunkSize) != 1) {
            throw new IllegalArgumentException("index chunk size must be a power of two, got " + indexChunkSize);
        }
        this.allocator = allocator;
        this.allocatorName = allocatorName;
        this.dataChunkSize = dataChunkSize;
        this.indexChunkSize = indexChunkSize;
        this.limit = limit;
        this.maxFreeBytes = maxFreeBytes;
        this.writerWaitNanos = writerWaitNanos;
    }

    int dataChunkSize() {
        return dataChunkSize;
    }

    int indexChunkSize() {
        return indexChunkSize;
    }

    /** A data chunk for a writer ({@code wait}: blocks while the pool is exhausted) or a compaction. */
    Chunk takeData(boolean wait) {
        return take(Chunk.Kind.DATA, dataChunkSize, wait);
    }

    Chunk takeIndex(boolean wait) {
        return take(Chunk.Kind.INDEX, indexChunkSize, wait);
    }

    /** A chunk of exactly {@code size} bytes for one large cell; never kept for reuse. */
    Chunk takeJumbo(int size, boolean wait) {
        return take(Chunk.Kind.JUMBO, size, wait);
    }

    private Chunk take(Chunk.Kind kind, int size, boolean wait) {
        lock.lock();
        try {
            long deadline = System.nanoTime() + writerWaitNanos;
            while (true) {
                if (closed) {
                    throw new IllegalStateException("off-heap chunk pool is closed");
                }
                if (!wait && writerReserve > 0 && limit - allocatedBytes + freeBytes - size < writerReserve) {
                    throw new MemoryLimitException("off-heap MemStore limit of " + limit + " bytes: the "
                            + writerReserve + " bytes promised to the write group being added leave no room for"
                            + " a compaction's chunk now; raise offHeapLimit or lower memstoreSize");
                }
                ArrayDeque<Chunk> free = freeList(kind);
                Chunk c = free == null ? null : free.pollFirst();
                if (c != null) {
                    freeBytes -= c.capacity;
                    inUse++;
                    return c;
                }
                if (allocatedBytes + size > limit) {
                    // Reuse nothing of another size: drop free chunks of the other kind to make room.
                    trimFree(allocatedBytes + size - limit);
                }
                if (allocatedBytes + size <= limit) {
                    c = allocate(kind, size);
                    allocatedBytes += size;
                    inUse++;
                    return c;
                }
                if (inUse == 0) {
                    // Nothing can come back: only a chunk larger than the limit gets here.
                    throw new MemoryLimitException("a " + size + "-byte off-heap chunk exceeds the off-heap MemStore"
                            + " limit of " + limit + " bytes; raise offHeapLimit");
                }
                long left = deadline - System.nanoTime();
                if (!wait || left <= 0) {
                    throw new MemoryLimitException("off-heap MemStore limit of " + limit + " bytes reached ("
                            + inUse + " chunks in use, " + allocatedBytes + " bytes allocated"
                            + (wait ? ", waited " + TimeUnit.NANOSECONDS.toMillis(writerWaitNanos) + " ms" : "")
                            + "); raise offHeapLimit or lower memstoreSize");
                }
                returned.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemoryLimitException("interrupted while waiting for an off-heap chunk", e);
        } finally {
            lock.unlock();
        }
    }

    private Chunk allocate(Chunk.Kind kind, int size) {
        try {
            return new Chunk(allocator.directBuffer(size, size), kind);
        } catch (OutOfMemoryError e) {
            throw new MemoryLimitException("cannot allocate a " + size + "-byte off-heap chunk (" + allocatorName
                    + " netty allocator): the JVM's direct"
                    + " memory is exhausted (" + e.getMessage() + "); raise -XX:MaxDirectMemorySize above"
                    + " offHeapLimit (" + limit + ")", e);
        }
    }

    /** Gives a chunk back: kept for reuse when there is room, else released to the allocator. */
    void give(Chunk c) {
        boolean release;
        lock.lock();
        try {
            inUse--;
            ArrayDeque<Chunk> free = freeList(c.kind);
            release = closed || free == null || freeBytes + c.capacity > maxFreeBytes;
            if (release) {
                allocatedBytes -= c.capacity;
            } else {
                free.addFirst(c);
                freeBytes += c.capacity;
            }
            returned.signalAll();
        } finally {
            lock.unlock();
        }
        if (release) {
            c.owner.release();
        }
    }

    /** REQUIRES: lock held. Releases free chunks, index chunks first, until {@code bytes} are freed. */
    private void trimFree(long bytes) {
        long freed = trim(freeIndex, bytes);
        trim(freeData, bytes - freed);
    }

    private long trim(ArrayDeque<Chunk> free, long bytes) {
        long freed = 0;
        Chunk c;
        while (freed < bytes && (c = free.pollLast()) != null) {
            freeBytes -= c.capacity;
            allocatedBytes -= c.capacity;
            freed += c.capacity;
            c.owner.release();
        }
        return freed;
    }

    private ArrayDeque<Chunk> freeList(Chunk.Kind kind) {
        switch (kind) {
            case DATA:
                return freeData;
            case INDEX:
                return freeIndex;
            default:
                return null;
        }
    }

    /**
     * Whether a write group of {@code entries} cells in {@code bytes} encoded batch bytes fits without
     * waiting: the bytes not yet allocated plus those kept free cover its records, the chunk tails
     * they leave and two data chunks (the current chunk's unusable tail, rounding). A record's 6-byte
     * header replaces at least 2 encoded bytes (kind and key length of a delete; 3 for a put), so the
     * records take at most {@code bytes + 4 * entries}; a record sharing a chunk is at most an eighth of
     * it, so tails waste at most a seventh of the records. A yes promises the group that room until the
     * next call: compactions leave it alone.
     */
    boolean hasRoomFor(long bytes, long entries) {
        long need = need(bytes, entries);
        lock.lock();
        try {
            if (limit - allocatedBytes + freeBytes < need) {
                return false;
            }
            writerReserve = need;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the group could fit once everything else is released: false means waiting cannot help. */
    boolean canEverHold(long bytes, long entries) {
        return need(bytes, entries) <= limit;
    }

    long limit() {
        return limit;
    }

    private long need(long bytes, long entries) {
        long records = bytes + 4 * entries;
        return records + records / 7 + 2L * dataChunkSize;
    }

    long chunksInUse() {
        lock.lock();
        try {
            return inUse;
        } finally {
            lock.unlock();
        }
    }

    long chunksFree() {
        lock.lock();
        try {
            return freeData.size() + freeIndex.size();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes allocated from the allocator: chunks in use and chunks kept for reuse. */
    long allocatedBytes() {
        lock.lock();
        try {
            return allocatedBytes;
        } finally {
            lock.unlock();
        }
    }



    /** Releases the free chunks; chunks still in use are released as they come back. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            trimFree(Long.MAX_VALUE);
            returned.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
