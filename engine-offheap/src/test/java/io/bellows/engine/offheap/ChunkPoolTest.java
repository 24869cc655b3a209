package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.MemoryLimitException;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bounded chunk pool: limit and backpressure, reuse up to its bound, exact metrics, jumbo chunks,
 * close. Chunks come from an unpooled allocator, so a chunk's reference count tells whether the pool
 * released it to the allocator (0) or still holds it (1).
 */
class ChunkPoolTest {
    private static final int DATA = 4096;
    private static final int INDEX = 1024;

    private static ChunkPool pool(long limit, long maxFree, long writerWaitNanos) {
        return new ChunkPool(new UnpooledByteBufAllocator(true), "unpooled", DATA, INDEX, limit, maxFree,
                writerWaitNanos);
    }

    private static void assertPool(ChunkPool p, long inUse, long free, long allocated) {
        assertEquals(inUse, p.chunksInUse(), "chunks in use");
        assertEquals(free, p.chunksFree(), "chunks free");
        assertEquals(allocated, p.allocatedBytes(), "bytes allocated");
    }

    @Test
    void compactionFailsAtOnceWhenTheLimitIsReached() {
        try (ChunkPool p = pool(4 * DATA, 16 * DATA, TimeUnit.SECONDS.toNanos(30))) {
            List<Chunk> taken = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                taken.add(p.takeData(false));
            }
            assertPool(p, 4, 0, 4 * DATA);
            long start = System.nanoTime();
            MemoryLimitException e = assertThrows(MemoryLimitException.class, () -> p.takeData(false));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "a compaction does not wait");
            assertTrue(e.getMessage().contains("limit of " + 4 * DATA + " bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("offHeapLimit"), "names the option to raise: " + e.getMessage());
            assertThrows(MemoryLimitException.class, () -> p.takeIndex(false), "index chunks count too");
            assertPool(p, 4, 0, 4 * DATA);
            taken.forEach(p::give);
            assertPool(p, 0, 4, 4 * DATA);
        }
    }

    @Test
    void aJumboChunkLargerThanTheLimitFailsAtOnceWhenNothingCanComeBack() {
        try (ChunkPool p = pool(4 * DATA, 16 * DATA, TimeUnit.SECONDS.toNanos(30))) {
            p.give(p.takeData(true));
            long start = System.nanoTime();
            MemoryLimitException e = assertThrows(MemoryLimitException.class, () -> p.takeJumbo(5 * DATA, true));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "waiting could not help");
            assertTrue(e.getMessage().contains(5 * DATA + "-byte") && e.getMessage().contains("limit of " + 4 * DATA),
                    e.getMessage());
            assertPool(p, 0, 0, 0);
            Chunk fits = p.takeJumbo(4 * DATA, true);
            assertPool(p, 1, 0, 4 * DATA);
            p.give(fits);
        }
    }

    @Test
    void writerWaitsForAChunkGivenBack() throws Exception {
        try (ChunkPool p = pool(2 * DATA, 16 * DATA, TimeUnit.SECONDS.toNanos(30))) {
            Chunk a = p.takeData(true);
            Chunk b = p.takeData(true);
            CompletableFuture<Chunk> waiting = new CompletableFuture<>();
            Thread writer = new Thread(() -> {
                try {
                    waiting.complete(p.takeData(true));
                } catch (Throwable t) {
                    waiting.completeExceptionally(t);
                }
            });
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (writer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(Thread.State.TIMED_WAITING, writer.getState(), "the writer waits for a chunk");
            assertTrue(!waiting.isDone());
            p.give(b);
            Chunk c = waiting.get(10, TimeUnit.SECONDS);
            assertSame(b, c, "the chunk given back is the one handed out");
            assertPool(p, 2, 0, 2 * DATA);
            p.give(a);
            p.give(c);
            assertPool(p, 0, 2, 2 * DATA);
        }
    }

    @Test
    void writerFailsAfterItsWait() {
        long wait = TimeUnit.MILLISECONDS.toNanos(50);
        try (ChunkPool p = pool(DATA, 16 * DATA, wait)) {
            Chunk a = p.takeData(true);
            long start = System.nanoTime();
            MemoryLimitException e = assertThrows(MemoryLimitException.class, () -> p.takeData(true));
            assertTrue(System.nanoTime() - start >= wait, "the writer waited");
            assertTrue(e.getMessage().contains("limit of " + DATA + " bytes"), e.getMessage());
            assertTrue(e.getMessage().contains("waited 50 ms"), e.getMessage());
            assertPool(p, 1, 0, DATA);
            p.give(a);
        }
    }

    @Test
    void interruptedWriterFailsAndKeepsItsInterrupt() {
        try (ChunkPool p = pool(DATA, 16 * DATA, TimeUnit.SECONDS.toNanos(30))) {
            Chunk a = p.takeData(true);
            Thread.currentThread().interrupt();
            try {
                assertThrows(MemoryLimitException.class, () -> p.takeData(true));
                assertTrue(Thread.currentThread().isInterrupted());
            } finally {
                Thread.interrupted();
            }
            assertPool(p, 1, 0, DATA);
            p.give(a);
        }
    }

    @Test
    void givenBackChunksAreReusedUpToTheBound() {
        try (ChunkPool p = pool(16 * DATA, 2 * DATA, 0)) {
            Chunk a = p.takeData(false);
            p.give(a);
            assertPool(p, 0, 1, DATA);
            assertSame(a, p.takeData(false), "a chunk given back is handed out again");
            assertEquals(1, a.owner.refCnt());
            List<Chunk> taken = new ArrayList<>(List.of(a));
            for (int i = 0; i < 3; i++) {
                taken.add(p.takeData(false));
            }
            assertPool(p, 4, 0, 4 * DATA);
            for (Chunk c : taken) {
                p.give(c);
            }
            assertPool(p, 0, 2, 2 * DATA);
            assertEquals(1, taken.get(0).owner.refCnt(), "kept for reuse");
            assertEquals(1, taken.get(1).owner.refCnt(), "kept for reuse");
            assertEquals(0, taken.get(2).owner.refCnt(), "beyond maxFreeBytes: released");
            assertEquals(0, taken.get(3).owner.refCnt(), "beyond maxFreeBytes: released");
            // Most recently given back first: its memory is likeliest still in cache.
            Chunk x = p.takeData(false);
            Chunk y = p.takeData(false);
            Chunk z = p.takeData(false);
            assertSame(taken.get(1), x);
            assertSame(taken.get(0), y);
            assertNotSame(taken.get(0), z);
            assertPool(p, 3, 0, 3 * DATA);
            for (Chunk c : List.of(x, y, z)) {
                p.give(c);
            }
        }
    }

    @Test
    void noReuseWhenMaxFreeIsZero() {
        try (ChunkPool p = pool(16 * DATA, 0, 0)) {
            Chunk a = p.takeData(false);
            Chunk i = p.takeIndex(false);
            p.give(a);
            p.give(i);
            assertPool(p, 0, 0, 0);
            assertEquals(0, a.owner.refCnt());
            assertEquals(0, i.owner.refCnt());
        }
    }

    @Test
    void metricsCountDataAndIndexChunksExactly() {
        try (ChunkPool p = pool(16 * DATA, 16 * DATA, 0)) {
            Chunk d1 = p.takeData(false);
            Chunk d2 = p.takeData(false);
            Chunk i1 = p.takeIndex(false);
            assertEquals(DATA, d1.capacity);
            assertEquals(INDEX, i1.capacity);
            assertEquals(Chunk.Kind.INDEX, i1.kind);
            assertPool(p, 3, 0, 2 * DATA + INDEX);
            p.give(i1);
            assertPool(p, 2, 1, 2 * DATA + INDEX);
            assertSame(i1, p.takeIndex(false), "index chunks are reused as index chunks");
            Chunk d3 = p.takeData(false);
            assertNotSame(i1, d3);
            assertPool(p, 4, 0, 3 * DATA + INDEX);
            for (Chunk c : List.of(d1, d2, d3, i1)) {
                p.give(c);
            }
            assertPool(p, 0, 4, 3 * DATA + INDEX);
        }
    }

    @Test
    void freeChunksOfTheOtherKindMakeRoomAtTheLimit() {
        try (ChunkPool p = pool(2 * DATA, 16 * DATA, 0)) {
            List<Chunk> index = new ArrayList<>();
            for (int i = 0; i < 2 * DATA / INDEX; i++) {
                index.add(p.takeIndex(false));
            }
            index.forEach(p::give);
            assertPool(p, 0, 8, 2 * DATA);
            Chunk d = p.takeData(false);
            assertPool(p, 1, 4, 2 * DATA);
            assertEquals(4, index.stream().filter(c -> c.owner.refCnt() == 0).count(), "just enough released");
            p.give(d);
        }
    }

    @Test
    void jumboChunksCountOffHeapAndAreNeverPooled() {
        try (ChunkPool p = pool(4 * DATA, 16 * DATA, 0)) {
            Chunk j = p.takeJumbo(10_000, false);
            assertEquals(Chunk.Kind.JUMBO, j.kind);
            assertEquals(10_000, j.capacity);
            assertTrue(j.buf.isDirect(), "a jumbo chunk lives off-heap like the rest");
            assertPool(p, 1, 0, 10_000);
            Chunk d = p.takeData(false);
            assertThrows(MemoryLimitException.class, () -> p.takeData(false), "the jumbo chunk counts to the limit");
            assertThrows(MemoryLimitException.class, () -> p.takeJumbo(4 * DATA + 1, false));
            p.give(j);
            assertEquals(0, j.owner.refCnt(), "jumbo chunks go straight back to the allocator");
            assertPool(p, 1, 0, DATA);
            p.give(d);
            assertPool(p, 0, 1, DATA);
        }
    }

    @Test
    void closeReleasesFreeChunksAndLaterGivesRelease() {
        ChunkPool p = pool(16 * DATA, 16 * DATA, 0);
        Chunk kept = p.takeData(false);
        Chunk free = p.takeData(false);
        Chunk index = p.takeIndex(false);
        p.give(free);
        p.give(index);
        assertPool(p, 1, 2, 2 * DATA + INDEX);
        p.close();
        assertEquals(0, free.owner.refCnt());
        assertEquals(0, index.owner.refCnt());
        assertPool(p, 1, 0, DATA);
        assertEquals(1, kept.owner.refCnt(), "a chunk in use stays readable after close");
        assertThrows(IllegalStateException.class, () -> p.takeData(true));
        p.give(kept);
        assertEquals(0, kept.owner.refCnt(), "given back after close: released at once");
        assertPool(p, 0, 0, 0);
        p.close();
        assertPool(p, 0, 0, 0);
    }
}
