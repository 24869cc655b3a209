package io.bellows.engine.internal.io;

import io.bellows.engine.internal.util.DaemonThreads;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The threads that write full chunks of direct table files behind their writers, and the chunk buffers
 * those writers share. A flush or compaction thread otherwise waits on each 256 KiB write before it
 * builds the next chunk: with direct I/O the kernel takes no copy, so every {@code pwrite} is a round trip
 * to the device, and such writes were about half of a compaction thread's wall time at scale factor 8
 * (docs/benchmarks.md, "FLSM in PebblesDB's own setting"). Process-wide, eight threads; each file has at
 * most one chunk in flight.
 */
final class WriteBehind {
    /** Bytes written per chunk; a multiple of every block size {@link DirectIo} accepts up to this. */
    static final int CHUNK = 256 << 10;
    /**
     * Chunk buffers kept for the next writers, 4 MiB at most: a store writes tables of a few hundred KiB
     * (small stores, LSM_TRIE's tables sized by what they hold, scale models), and a direct buffer is
     * zeroed and registered with a cleaner on allocation.
     */
    private static final ArrayBlockingQueue<ByteBuffer> FREE = new ArrayBlockingQueue<>(16);

    /** Nothing run here waits on anything, so writes beyond the threads queue without deadlock. */
    private static final ThreadPoolExecutor WRITERS = DaemonThreads.fixed("bellows-table-write", 8);

    private WriteBehind() {}

    /** A write that may fail. */
    interface Write {
        void run() throws IOException;
    }

    /**
     * Runs {@code write} on a writer thread; the future completes with its failure, or null. Never
     * completes exceptionally, so a waiter can rethrow the file's own exception (a full disk stays a full
     * disk) and meets every other failure too.
     */
    static CompletableFuture<Throwable> start(Write write) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                write.run();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }, WRITERS);
    }

    /** A chunk buffer aligned to {@code align}, pooled when the alignment divides the default block. */
    static ByteBuffer chunk(int align) {
        if (pooled(align)) {
            ByteBuffer b = FREE.poll();
            return b != null ? b.clear() : DirectIo.allocateAligned(CHUNK, DirectIo.DEFAULT_BLOCK_SIZE);
        }
        return DirectIo.allocateAligned(Math.max(CHUNK, align), align);
    }

    /** Gives back a buffer from {@link #chunk} that nothing reads or writes any more. */
    static void release(ByteBuffer b, int align) {
        if (b != null && pooled(align)) {
            FREE.offer(b);
        }
    }

    private static boolean pooled(int align) {
        return align <= DirectIo.DEFAULT_BLOCK_SIZE;
    }
}
