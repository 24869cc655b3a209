package io.bellows.engine.offheap;

import static io.bellows.engine.offheap.ModelCells.release;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.MemoryLimitException;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreContext;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.memstore.MemStores;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Off-heap chunks go back to the pool only when no segment, state or view can reach them. Chunks come
 * unreleased-unpooled where it matters (maxFreeBytes 0, or {@code bellows.offheap.checkedRelease}), so
 * a chunk returned too early fails the next read of it with netty's IllegalReferenceCountException.
 */
class SegmentLifetimeTest {
    private static final int CHUNK = 4096;

    @AfterEach
    void clearProperty() {
        System.clearProperty(OffHeapLayoutProvider.CHECKED_RELEASE);
    }

    /** A pool that releases every chunk given back: nothing is kept for reuse. */
    private static ChunkPool checkedPool(long limit) {
        return new ChunkPool(new UnpooledByteBufAllocator(true), "unpooled", CHUNK, CHUNK, limit, 0, 0);
    }

    private static void put(MutableSegment s, String key, long seq, String value) {
        s.add(key.getBytes(), seq, InternalKeys.KIND_PUT, value.getBytes());
    }

    private static String get(Segment s, String key) {
        Lookup lk = new Lookup();
        return s.get(key.getBytes(), InternalKeys.MAX_SEQUENCE, lk) ? new String(lk.copyValue()) : null;
    }

    /**
     * The reference protocol CompactingMemStore follows, step by step: the layout hands out one
     * reference per memory, a state listing a segment holds one more, and a flat or merged segment
     * shares (and references) its inputs' data chunks.
     */
    @Test
    void chunksReturnWhenTheLastHolderLetsGo() {
        try (ChunkPool pool = checkedPool(1 << 20); OffHeapLayout layout = new OffHeapLayout(pool)) {
            MutableSegment active = layout.newMutable();
            OffHeapMslab mslab = (OffHeapMslab) active.memory().get(0);
            assertEquals(1, mslab.references(), "the creator's reference");
            assertEquals(0, pool.chunksInUse(), "chunks are taken on the first write");
            for (int i = 0; i < 100; i++) {
                put(active, "key" + i, i + 1, "value-" + i + "-".repeat(60));
            }
            int dataChunks = mslab.chunkCount();
            assertTrue(dataChunks > 1);
            assertEquals(dataChunks, pool.chunksInUse());

            mslab.retain(); // a state lists the active segment
            ImmutableSegment flat = layout.flatten(active);
            IndexChunks index = (IndexChunks) flat.memory().get(0);
            assertEquals(List.of(index, mslab), flat.memory(), "index first, then the shared data");
            assertEquals(3, mslab.references(), "creator, state, and the flat segment's caller reference");
            assertEquals(1, index.references());
            assertEquals(dataChunks + index.chunkCount(), pool.chunksInUse(), "flattening copies no data");

            mslab.release(); // the creator's reference on the active segment
            mslab.release(); // the state listing the active segment is replaced
            assertEquals(1, mslab.references(), "the flat segment holds the data");
            assertEquals("value-42" + "-".repeat(60), get(flat, "key42"));

            ImmutableSegment merged = layout.merge(List.of(flat));
            IndexChunks mergedIndex = (IndexChunks) merged.memory().get(0);
            release(flat); // the flat segment's index goes; its data stays with the merged segment
            assertEquals(0, index.references());
            assertEquals(1, mslab.references());
            assertEquals(dataChunks + mergedIndex.chunkCount(), pool.chunksInUse());
            assertEquals("value-7" + "-".repeat(60), get(merged, "key7"));

            // Compaction copies into fresh memory; the inputs' chunks go once the inputs are released.
            ImmutableSegment compacted = layout.compact(List.of(merged), new Retention(new long[0], 1000)).segment();
            long compactedChunks = pool.chunksInUse() - dataChunks - mergedIndex.chunkCount();
            release(merged);
            assertEquals(0, mslab.references());
            assertEquals(0, mslab.chunkCount(), "an MSLAB's chunks are all given back together");
            assertEquals(compactedChunks, pool.chunksInUse());
            assertEquals("value-99" + "-".repeat(60), get(compacted, "key99"));
            release(compacted);
            assertEquals(0, pool.chunksInUse());
            assertEquals(0, pool.allocatedBytes());

            assertThrows(IllegalStateException.class, mslab::retain, "no retain after the chunks went back");
            assertThrows(IllegalStateException.class, index::release, "no release below zero");
        }
    }

    /** A compaction that runs out of chunks gives back what it took and leaves its inputs intact. */
    @Test
    void failedCompactionReturnsItsChunks() {
        try (ChunkPool pool = checkedPool(4 * CHUNK); OffHeapLayout layout = new OffHeapLayout(pool)) {
            MutableSegment active = layout.newMutable();
            for (int i = 0; i < 80; i++) {
                put(active, "key" + i, i + 1, "v".repeat(100));
            }
            long before = pool.chunksInUse();
            assertEquals(3, before);
            assertThrows(MemoryLimitException.class,
                    () -> layout.compact(List.of(active), new Retention(new long[0], 1000)));
            assertEquals(before, pool.chunksInUse(), "the partial output went back");
            assertEquals(1, ((OffHeapMslab) active.memory().get(0)).references());
            assertEquals("v".repeat(100), get(active, "key79"));
            release(active);
            assertEquals(0, pool.chunksInUse());
        }
    }

    /** Runs queued compactions only when the test says so. */
    private static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        synchronized Runnable poll() {
            return queue.poll();
        }

        void runAll() {
            for (Runnable r; (r = poll()) != null; ) {
                r.run();
            }
        }
    }

    private static final class Fixture implements AutoCloseable {
        final ManualExecutor executor = new ManualExecutor();
        final AtomicLong published = new AtomicLong();
        final MemStoreCounters counters = new MemStoreCounters();
        final MemStore store;
        long seq;

        Fixture(EngineOptions options) {
            // Read once, when the MemStore's pool is made: chunks are unpooled and released at once.
            System.setProperty(OffHeapLayoutProvider.CHECKED_RELEASE, "true");
            try {
                store = MemStores.create(options, new MemStoreContext(published::get, () -> new long[0], executor,
                        counters, () -> {}));
            } finally {
                System.clearProperty(OffHeapLayoutProvider.CHECKED_RELEASE);
            }
        }

        /** Writes every key once with value "key/round", running due compactions as it goes. */
        void round(int keys, int round) {
            for (int k = 0; k < keys; k++) {
                store.add(key(k), ++seq, InternalKeys.KIND_PUT, value(k, round));
                store.endWrite();
                published.set(seq);
                executor.runAll();
            }
        }

        SegmentLayout.PoolStats pool() {
            return store.stats().pool;
        }

        /** Chunks held by the segments of a current view (the view itself pins nothing more). */
        long chunksOfCurrentState() {
            try (MemStoreView v = store.view()) {
                Set<SegmentMemory> seen = Collections.newSetFromMap(new IdentityHashMap<>());
                long n = 0;
                for (Segment s : v.segments()) {
                    for (SegmentMemory m : s.memory()) {
                        if (seen.add(m)) {
                            n += ((PooledChunks) m).chunkCount();
                        }
                    }
                }
                return n;
            }
        }

        @Override
        public void close() {
            store.close();
        }
    }

    static byte[] key(int k) {
        return String.format("key%05d", k).getBytes();
    }

    static byte[] value(int k, int round) {
        return (String.format("key%05d/%d/", k, round) + "x".repeat(80)).getBytes();
    }

    /** Every key of {@code view}, read at {@code seq}, holds the value of {@code round}. */
    private static void assertRound(MemStoreView view, long seq, int keys, int round, String ctx) {
        Lookup lk = new Lookup();
        for (int k = 0; k < keys; k++) {
            assertTrue(view.get(key(k), seq, lk), ctx + ": key " + k);
            assertArrayEquals(value(k, round), lk.copyValue(), ctx + ": key " + k);
        }
    }

    /**
     * Through the SPI, as the engine uses it: a view taken before many in-memory compactions keeps every
     * chunk it reads until it is closed, and then exactly the chunks of the current state stay in use;
     * after a disk flush and after close, none.
     */
    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"BASIC", "EAGER", "ADAPTIVE"})
    void viewsPinChunksAcrossCompactionsFlushAndClose(InMemoryCompaction policy) {
        EngineOptions options = EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).inMemoryCompaction(policy)
                .memstoreSize(1 << 20).activeSegmentFraction(0.01).mslabChunkSize(CHUNK).build();
        int keys = 300;
        try (Fixture f = new Fixture(options)) {
            f.round(keys, 0);
            // The view shares the active segment, which takes later writes: it reads at its sequence.
            long oldSeq = f.seq;
            MemStoreView old = f.store.view();
            for (int round = 1; round <= 5; round++) {
                f.round(keys, round);
            }
            assertTrue(f.counters.inMemoryFlushes.sum() > 10, "many in-memory flushes");
            assertTrue(f.counters.flattens.sum() + f.counters.merges.sum() + f.counters.compactions.sum() > 3,
                    "in-memory compactions ran");
            long current = f.chunksOfCurrentState();
            assertTrue(f.pool().chunksInUse() > current, "the old view holds chunks the current state dropped");
            assertRound(old, oldSeq, keys, 0, policy + " old view");
            old.close();
            assertEquals(current, f.pool().chunksInUse(), policy + ": the old view's chunks went back");

            // Disk flush: the snapshot's chunks stay while a view reads them, and go with the view.
            MemStoreView duringFlush = f.store.view();
            List<Segment> snapshot = f.store.snapshot();
            assertFalse(snapshot.isEmpty());
            f.store.clearSnapshot();
            f.executor.runAll();
            assertEquals(current, f.pool().chunksInUse(), "the view holds the flushed segments");
            assertRound(duringFlush, InternalKeys.MAX_SEQUENCE, keys, 5, policy + " view across the flush");
            duringFlush.close();
            assertEquals(0, f.pool().chunksInUse(), policy + ": nothing in memory after the flush");

            // Close with a view open: its chunks outlive the MemStore until it is closed.
            f.round(keys, 6);
            MemStoreView open = f.store.view();
            f.store.close();
            assertTrue(f.pool().chunksInUse() > 0);
            assertRound(open, InternalKeys.MAX_SEQUENCE, keys, 6, policy + " view across close");
            open.close();
            SegmentLayout.PoolStats after = f.pool();
            assertEquals(0, after.chunksInUse(), policy + ": no chunk in use after close");
            assertEquals(0, after.chunksFree(), policy + ": close keeps no free chunk");
            assertEquals(0, after.offHeapBytes(), policy + ": no off-heap byte held after close");
        }
    }

    /**
     * Closing the MemStore while in-memory compactions run on their own thread: a compaction either
     * finishes and is discarded, or fails on the closed pool; either way every chunk goes back.
     */
    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"BASIC", "EAGER"})
    void closeDuringCompactionsReturnsEveryChunk(InMemoryCompaction policy) throws Exception {
        EngineOptions options = EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).inMemoryCompaction(policy)
                .memstoreSize(1 << 20).activeSegmentFraction(0.01).pipelineSegments(2).mslabChunkSize(CHUNK).build();
        for (int run = 0; run < 5; run++) {
            ExecutorService compactor = Executors.newSingleThreadExecutor();
            AtomicLong published = new AtomicLong();
            MemStoreCounters counters = new MemStoreCounters();
            System.setProperty(OffHeapLayoutProvider.CHECKED_RELEASE, "true");
            MemStore store;
            try {
                store = MemStores.create(options, new MemStoreContext(published::get, () -> new long[0], compactor,
                        counters, () -> {}));
            } finally {
                System.clearProperty(OffHeapLayoutProvider.CHECKED_RELEASE);
            }
            long seq = 0;
            for (int i = 0; i < 3000 + 500 * run; i++) {
                store.add(key(i % 500), ++seq, InternalKeys.KIND_PUT, value(i % 500, i));
                store.endWrite();
                published.set(seq);
            }
            store.close();
            compactor.shutdown();
            assertTrue(compactor.awaitTermination(30, TimeUnit.SECONDS));
            SegmentLayout.PoolStats after = store.stats().pool;
            assertEquals(0, after.chunksInUse(), policy + " run " + run + ": chunks in use after close");
            assertEquals(0, after.offHeapBytes(), policy + " run " + run + ": off-heap bytes after close");
        }
    }

    /**
     * A writer facing an exhausted pool (offHeapLimit at its minimum, three MemStores' worth) waits, and
     * goes on once a disk flush gives the snapshot's chunks back.
     */
    @Test
    void writerWaitsForAFlushToReturnChunks() throws Exception {
        long memstore = (1 << 20) / 3 + 1; // the smallest offHeapLimit is 1 MiB
        EngineOptions options = EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP)
                .inMemoryCompaction(InMemoryCompaction.NONE).memstoreSize(memstore).offHeapLimit(3 * memstore)
                .build();
        try (Fixture f = new Fixture(options)) {
            int chunkSize = OffHeapLayoutProvider.dataChunkSize(options, false);
            long limitChunks = 3 * memstore / chunkSize;
            int record = OffHeapMslab.HEADER + key(0).length + value(0, 0).length;
            int perChunk = chunkSize / record;
            int k = 0;
            while (!f.store.shouldFlush()) {
                f.store.add(key(k++), ++f.seq, InternalKeys.KIND_PUT, value(k, 0));
            }
            f.store.snapshot();
            long snapshotChunks = f.pool().chunksInUse();
            // Two chunks' worth more than the pool has left: the writer must wait for the snapshot's.
            long toWrite = (limitChunks - snapshotChunks + 2) * perChunk;
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (long i = 0; i < toWrite; i++) {
                    f.store.add(key((int) i), ++f.seq, InternalKeys.KIND_PUT, value((int) i, 1));
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (f.pool().chunksInUse() < limitChunks && !writer.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(100);
            assertFalse(writer.isDone(), "the writer waits for chunks");
            assertEquals(limitChunks, f.pool().chunksInUse(), "the pool is exhausted");
            f.store.clearSnapshot();
            writer.get(20, TimeUnit.SECONDS);
            try (MemStoreView v = f.store.view()) {
                Lookup lk = new Lookup();
                assertTrue(v.get(key(0), InternalKeys.MAX_SEQUENCE, lk));
                assertNotNull(lk.copyValue());
                assertArrayEquals(value((int) toWrite - 1, 1), get(v, key((int) toWrite - 1)));
            }
        }
    }

    private static byte[] get(MemStoreView v, byte[] key) {
        Lookup lk = new Lookup();
        return v.get(key, InternalKeys.MAX_SEQUENCE, lk) ? lk.copyValue() : null;
    }
}
