package io.bellows.engine.internal.memstore;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;
import static io.bellows.engine.internal.memstore.MemStoreFixture.b;
import static io.bellows.engine.internal.memstore.MemStoreFixture.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Policies, pipeline, snapshot and sizes of the compacting MemStore, driven step by step. */
class CompactingMemStoreTest {
    /** Flush size 10000, A = 0.01: a push every 100 data bytes, i.e. every 10 cells of "kNN"+"vNNNNNN". */
    private static MemStoreFixture fixture(InMemoryCompaction policy, ChunkPool pool,
            MemStoreFixture.ManualExecutor ex) {
        return new MemStoreFixture(policy, 10_000, 0.01, 2, 0.5, pool, ex);
    }

    @Test
    void basicFlattensThenMergesAndKeepsEveryVersion() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.BASIC, null, ex);
        long seq = 0;
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < 10; i++) {
                f.put(String.format("k%02d", i), ++seq, String.format("v%06d", seq));
            }
            ex.runAll();
        }
        assertEquals(4, f.counters.inMemoryFlushes.sum());
        assertEquals(1, f.counters.merges.sum(), "[A] [B,A] flatten; [C,B,A] merges; [D,M] flattens D");
        assertEquals(3, f.counters.flattens.sum());
        assertEquals(0, f.counters.compactions.sum());
        assertEquals(2, f.store.pipeline().segments.size());
        for (Segment s : f.store.pipeline().segments) {
            assertEquals("flat", s.kind());
        }
        assertEquals(40 * 10, f.store.dataSize(), "BASIC drops nothing");
        for (long s = 1; s <= 40; s++) {
            String key = String.format("k%02d", (s - 1) % 10);
            assertEquals(String.format("v%06d", s), f.read(key, s), "every version readable at its sequence");
        }
        assertEquals(1, f.store.minSequence());
    }

    /** A write group larger than the active segment stays in one segment: readers see all of it or none. */
    @Test
    void aWriteGroupIsNeverSplitAcrossSegments() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.BASIC, null, ex);
        MemStoreView before = f.store.view();
        for (long s = 1; s <= 35; s++) {
            f.store.add(b(String.format("k%02d", s)), s, InternalKeys.KIND_PUT, b("v000000"));
        }
        assertEquals(0, f.counters.inMemoryFlushes.sum(), "no push inside a group");
        f.store.endWrite();
        assertEquals(1, f.counters.inMemoryFlushes.sum());
        assertEquals(35, f.store.pipeline().segments.get(0).entries());
        assertEquals(35, before.segments().get(0).entries(), "the view taken before holds the whole group");
        before.close();
    }

    @Test
    void eagerDropsRedundantVersionsAndCountsThem() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.EAGER, null, ex);
        long seq = 0;
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 10; i++) {
                f.put(String.format("k%02d", i), ++seq, String.format("v%06d", seq));
            }
            ex.runAll();
        }
        assertEquals(5, f.counters.compactions.sum());
        assertEquals(1, f.store.pipeline().segments.size());
        assertEquals(10, f.store.pipeline().segments.get(0).entries(), "one version per key survives");
        assertEquals(40, f.counters.cellsEliminated.sum());
        assertEquals(400, f.counters.bytesEliminated.sum());
        assertEquals(41, f.store.minSequence(), "dropping the oldest versions advances the oldest sequence");
        assertTrue(f.minSequenceCallbacks.get() > 0, "the engine is told it may release logs");
        assertEquals("v000050", f.read("k09", 100));
    }

    /** Versions a live snapshot (or a not yet published write) can read survive any compaction. */
    @Test
    void compactionKeepsWhatSnapshotsAndUnpublishedWritesCanRead() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.EAGER, null, ex);
        f.snapshots = new long[] {3, 7};
        f.published.set(12);
        // k: versions 1..16, one cell per sequence, pushed every 10 cells.
        for (long s = 1; s <= 20; s++) {
            if (s == 2 || s == 5) {
                f.add(b("k"), s, InternalKeys.KIND_DELETE, null);
            } else {
                f.put("k", s, String.format("v%06d", s));
            }
        }
        ex.runAll();
        // Read points 3, 7, 12: the newest at or below each survives, and everything above 12.
        assertEquals("v000003", f.read("k", 3));
        assertEquals("v000007", f.read("k", 7));
        assertEquals("v000012", f.read("k", 12));
        for (long s = 13; s <= 20; s++) {
            assertEquals(String.format("v%06d", s), f.read("k", s), "unpublished versions are all kept");
        }
        assertNull(f.read("k", 0));
        // The push came after sequence 15 (8-byte puts, 1-byte tombstones, 100-byte active segment):
        // 3, 7 and 12 for the read points, 13 to 15 above the published sequence.
        assertEquals(6, f.store.pipeline().segments.get(0).entries());
    }

    @Test
    void adaptiveEstimatesUniquenessAtMergesAndResetsAtDiskFlush() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = new MemStoreFixture(InMemoryCompaction.ADAPTIVE, 10_000, 0.01, 2, 0.95, null, ex);
        long seq = 0;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                f.put(String.format("k%02d", i % 5), ++seq, "v000000");
            }
            ex.runAll();
        }
        MemStoreStats st = f.store.stats();
        assertEquals(1, f.counters.merges.sum(), "R = 0.95 is above any redundancy seen: BASIC behaviour");
        assertEquals(5.0 / 30, st.uniqueness, 1e-9, "u = unique keys / cells at the last merge");
        assertEquals(0.5 * Math.pow(1.02, 3), st.throttle, 1e-9, "t grows 2% per in-memory flush");
        f.store.snapshot();
        st = f.store.stats();
        assertEquals(1, st.uniqueness);
        assertEquals(0.5, st.throttle, 1e-9, "t resets at disk flush");
    }

    @Test
    void adaptiveCompactsRedundantDataAndLeavesUniqueDataAlone() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture hot = new MemStoreFixture(InMemoryCompaction.ADAPTIVE, 1_000_000, 0.0001, 2, 0.5, null, ex);
        MemStoreFixture unique = new MemStoreFixture(InMemoryCompaction.ADAPTIVE, 1_000_000, 0.0001, 2, 0.5, null, ex);
        for (long s = 1; s <= 5000; s++) {
            hot.put(String.format("k%02d", s % 10), s, "v00000");
            unique.put(String.format("k%06d", s), s, "v00000");
            ex.runAll();
        }
        assertTrue(hot.counters.compactions.sum() > 0, "90% redundancy makes ADAPTIVE compact");
        assertTrue(hot.store.dataSize() < 5000 * 9 / 2);
        assertEquals(0, unique.counters.compactions.sum(), "unique keys never justify compaction");
        assertTrue(unique.counters.merges.sum() > 0);
    }

    /**
     * HBASE-26384: a flatten racing a disk flush replaced a segment in the pipeline the flush had
     * already taken, so the flushed segment stayed behind. Every pipeline change here is versioned:
     * the flatten (and likewise a merge or compaction) that finds the pipeline taken aborts.
     */
    @Test
    void hbase26384FlattenRacingDiskFlushAbortsAndLeavesNothingBehind() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.BASIC, null, ex);
        for (long s = 1; s <= 10; s++) {
            f.put(String.format("k%02d", s), s, "v000000");
        }
        assertEquals(1, f.store.pipeline().segments.size());
        List<Segment>[] flushed = new List[1];
        f.store.beforeSwap = () -> flushed[0] = f.store.snapshot();
        ex.runAll();
        f.store.beforeSwap = null;
        assertEquals(1, f.counters.aborted.sum());
        assertEquals(0, f.counters.flattens.sum());
        assertTrue(f.store.pipeline().segments.isEmpty(), "the flushed segment is not put back");
        assertEquals(1, flushed[0].size());
        f.store.clearSnapshot();
        assertEquals(0, f.store.dataSize());
        assertNull(f.read("k01", 100), "nothing of the flushed segment stays readable in memory");
    }

    /**
     * HBase's snapshot gives up after three swaps lost to compactions and flushes an empty snapshot.
     * Here the disk flush always wins: the compaction aborts, frees its output, and the snapshot holds
     * every version.
     */
    @Test
    void compactionRacingDiskFlushAbortsAndFreesItsOutput() {
        ChunkPool pool = new ChunkPool(4096, 64);
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.EAGER, pool, ex);
        for (long s = 1; s <= 30; s++) {
            f.put("k" + (s % 3), s, "v00000");
        }
        f.store.beforeSwap = () -> f.store.snapshot();
        ex.runAll();
        f.store.beforeSwap = null;
        assertEquals(0, f.counters.compactions.sum());
        assertTrue(f.counters.aborted.sum() >= 1);
        assertEquals(30 * 8, f.store.dataSize(), "the snapshot holds every version, none dropped");
        f.store.clearSnapshot();
        assertEquals(0, pool.chunksInUse(), "the empty active segment holds no chunk yet");
    }

    /**
     * A run that fails (here: every attempt to install its result throws) is given up until the next
     * in-memory flush: retrying at once would fail again, in a loop that keeps the compaction thread
     * busy and floods the log. The pipeline stays as it was and readable meanwhile.
     */
    @Test
    void aFailedRunIsNotRetriedInALoop() {
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.BASIC, null, ex);
        int[] attempts = {0};
        f.store.beforeSwap = () -> {
            if (++attempts[0] <= 100) {
                throw new IllegalStateException("injected compaction failure " + attempts[0]);
            }
        };
        for (long s = 1; s <= 10; s++) {
            f.put(String.format("k%02d", s), s, "v000000");
        }
        assertEquals(1, ex.runAll(), "the failed run scheduled no other");
        assertEquals(1, attempts[0]);
        assertEquals(0, f.counters.flattens.sum());
        assertEquals("skiplist", f.store.pipeline().segments.get(0).kind());
        assertEquals("v000000", f.read("k05", 100));
        attempts[0] = 100;
        for (long s = 11; s <= 20; s++) {
            f.put(String.format("k%02d", s), s, "v000000");
        }
        ex.runAll();
        assertEquals(2, f.counters.flattens.sum(), "the next in-memory flush starts a run again");
    }

    /** HBASE-18158: two in-memory compactions at once lost data. At most one run exists per MemStore. */
    @Test
    void hbase18158NoTwoCompactionsAtOnce() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.concurrent.atomic.AtomicInteger inside = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger maxInside = new java.util.concurrent.atomic.AtomicInteger();
            MemStoreFixture f = new MemStoreFixture(InMemoryCompaction.EAGER, 100_000, 0.001, 2, 0.5,
                    new ChunkPool(4096, 64), pool);
            f.store.beforeSwap = () -> {
                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                Thread.yield();
                inside.decrementAndGet();
            };
            for (long s = 1; s <= 20_000; s++) {
                f.put(String.format("k%03d", s % 500), s, String.format("v%06d", s));
            }
            awaitQuiet(f);
            assertEquals(1, maxInside.get());
            for (int k = 0; k < 500; k++) {
                long newest = 20_000 - ((20_000 - k) % 500);
                assertEquals(String.format("v%06d", newest), f.read(String.format("k%03d", k), Long.MAX_VALUE >>> 8));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * HBase starts no compaction when segments pile up during one. Here a run re-checks the pipeline
     * after it ends, so segments pushed meanwhile are flattened and merged without another write.
     */
    @Test
    void segmentsPushedDuringARunAreCompactedWithoutAnotherWrite() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            MemStoreFixture f = new MemStoreFixture(InMemoryCompaction.BASIC, 10_000, 0.01, 2, 0.5, null, pool);
            f.store.beforeSwap = () -> {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            long seq = 0;
            for (int i = 0; i < 10; i++) {
                f.put(String.format("a%02d", i), ++seq, "v000000");
            }
            assertTrue(entered.await(10, java.util.concurrent.TimeUnit.SECONDS));
            for (int i = 0; i < 60; i++) {
                f.put(String.format("b%02d", i), ++seq, "v000000");
            }
            assertEquals(7, f.store.pipeline().segments.size());
            f.store.beforeSwap = null;
            release.countDown();
            awaitQuiet(f);
            Pipeline p = f.store.pipeline();
            assertTrue(p.segments.size() <= 2, "pipeline back within its bound: " + p.segments.size());
            for (Segment s : p.segments) {
                assertEquals("flat", s.kind());
            }
            assertEquals(70 * 10, f.store.dataSize());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * HBASE-26465 / HBASE-26494: an MSLAB was recycled while a scanner still read its chunks. A view
     * pins its state, and so every chunk its segments use, until it is closed.
     */
    @Test
    void hbase26465AndHbase26494ChunksAreNotRecycledUnderAnOpenView() {
        ChunkPool pool = new ChunkPool(4096, 64);
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = fixture(InMemoryCompaction.EAGER, pool, ex);
        for (long s = 1; s <= 40; s++) {
            f.put(String.format("k%02d", s), s, String.format("v%06d", s));
        }
        ex.runAll();
        MemStoreView view = f.store.view();
        InternalIterator it = view.iterators().get(1);
        it.seekToFirst();
        int inUse = pool.chunksInUse();
        f.store.snapshot();
        f.store.clearSnapshot();
        assertEquals(inUse, pool.chunksInUse(), "the view holds the flushed chunks");
        // Reuse every free chunk with other bytes.
        for (long s = 41; s <= 2000; s++) {
            f.put(String.format("x%02d", s), s, "ZZZZZZZ");
        }
        ex.runAll();
        int n = 0;
        for (; it.isValid(); it.next()) {
            n++;
            assertArrayEquals(b(String.format("k%02d", n)), it.key());
            assertArrayEquals(b(String.format("v%06d", n)), it.value());
        }
        assertEquals(40, n);
        int before = pool.chunksInUse();
        view.close();
        assertTrue(pool.chunksInUse() < before, "closing the last view recycles the flushed chunks");
    }

    /**
     * HBASE-27464 (big cells left in recycled chunks) and HBASE-26467 (copied big cells had the wrong
     * length): cells of every size around the allocation limit and the chunk end survive compaction,
     * recycling of the old chunks, and reads, byte for byte.
     */
    @Test
    void hbase27464AndHbase26467BigCellsSurviveCompactionAndChunkRecycling() {
        ChunkPool pool = new ChunkPool(4096, 64);
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        MemStoreFixture f = new MemStoreFixture(InMemoryCompaction.EAGER, 100_000, 0.05, 2, 0.5, pool, ex);
        int[] sizes = {1, 100, 507, 508, 509, 510, 1000, 4000, 4090, 4096, 4097, 9000};
        long seq = 0;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < sizes.length; i++) {
                byte[] v = new byte[sizes[i]];
                java.util.Arrays.fill(v, (byte) (round * 16 + i));
                f.add(b(String.format("k%02d", i)), ++seq, InternalKeys.KIND_PUT, v);
            }
            ex.runAll();
        }
        assertTrue(f.counters.compactions.sum() > 0);
        for (long s = seq + 1; s <= seq + 3000; s++) {
            f.put(String.format("z%05d", s), s, "QQQQQQQQ");
        }
        ex.runAll();
        io.bellows.engine.internal.key.Lookup lk = new io.bellows.engine.internal.key.Lookup();
        try (MemStoreView v = f.store.view()) {
            for (int i = 0; i < sizes.length; i++) {
                assertTrue(v.get(b(String.format("k%02d", i)), Long.MAX_VALUE >>> 8, lk));
                assertEquals(sizes[i], lk.copyValue().length, "length of cell " + i);
                for (byte x : lk.copyValue()) {
                    assertEquals((byte) (32 + i), x, "content of cell " + i);
                }
            }
        }
    }

    /**
     * HBASE-26026 and HBASE-26210: writes stuck forever when a segment's size passed the in-memory
     * flush threshold without cells, or when one cell alone exceeded it. Writers here never wait: a
     * cell of any size is added and pushes the segment.
     */
    @Test
    void hbase26026AndHbase26210OversizedCellsNeverBlockWriters() {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
            MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
            MemStoreFixture f = fixture(InMemoryCompaction.BASIC, new ChunkPool(4096, 64), ex);
            byte[] big = new byte[50_000];
            for (long s = 1; s <= 20; s++) {
                f.add(b("big" + s), s, InternalKeys.KIND_PUT, big);
            }
            assertEquals(20, f.counters.inMemoryFlushes.sum(), "each oversized cell pushes its own segment");
            ex.runAll();
            assertEquals(20 * 50_000 + 9 * "big1".length() + 11 * "big10".length(), f.store.dataSize());
        });
    }

    /**
     * HBASE-21041 (negative heap size), HBASE-22929 / HBASE-26488 (leaks) and HBASE-24958 (wrong oldest
     * edit): through many pushes, compactions, disk flushes and views, sizes stay consistent, the
     * oldest sequence is exact, and every chunk goes back to the pool.
     */
    @Test
    void hbase21041Hbase22929Hbase26488Hbase24958SizesChunksAndOldestEditStayExact() {
        ChunkPool pool = new ChunkPool(4096, 256);
        MemStoreFixture.ManualExecutor ex = new MemStoreFixture.ManualExecutor();
        for (InMemoryCompaction policy : new InMemoryCompaction[] {
            InMemoryCompaction.BASIC, InMemoryCompaction.EAGER, InMemoryCompaction.ADAPTIVE}) {
            MemStoreFixture f = fixture(policy, pool, ex);
            long seq = 0;
            for (int cycle = 0; cycle < 5; cycle++) {
                long first = seq + 1;
                for (int i = 0; i < 500; i++) {
                    f.put(String.format("k%02d", i % 37), ++seq, String.format("v%06d", seq));
                    if (i % 50 == 0) {
                        ex.runAll();
                    }
                    assertTrue(f.store.heapSize() >= f.store.dataSize());
                    assertTrue(f.store.dataSize() >= 0);
                }
                ex.runAll();
                long min = f.store.minSequence();
                assertTrue(min >= first, policy + ": nothing older than this cycle is in memory");
                assertEquals(policy == InMemoryCompaction.BASIC ? first : min, min);
                MemStoreView held = f.store.view();
                f.store.snapshot();
                assertEquals(min, f.store.minSequence(), "the snapshot still holds the oldest edit");
                f.store.clearSnapshot();
                assertEquals(Long.MAX_VALUE, f.store.minSequence());
                assertEquals(0, f.store.dataSize());
                held.close();
                assertEquals(0, pool.chunksInUse(), policy + ": every chunk is back in the pool");
            }
            f.store.close();
            assertEquals(0, pool.chunksInUse(), policy + ": close returns every chunk");
        }
    }

    /** HBASE-17887: reads lost consistency while segments moved. Concurrent gets always find every key. */
    @Test
    void hbase17887ReadsSeeEveryKeyWhileSegmentsMove() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            MemStoreFixture f = new MemStoreFixture(InMemoryCompaction.ADAPTIVE, 200_000, 0.01, 2, 0.2,
                    new ChunkPool(4096, 256), pool);
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong clearedUpTo = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicLong checked = new java.util.concurrent.atomic.AtomicLong();
            Thread reader = new Thread(() -> {
                java.util.Random rnd = new java.util.Random(7);
                while (!done.get() && failure.get() == null) {
                    long cleared = clearedUpTo.get();
                    int k = rnd.nextInt(300);
                    String got;
                    long p;
                    // As the engine does: the view first, then the read sequence.
                    long p0 = f.published.get();
                    try (MemStoreView v = f.store.view()) {
                        p = f.published.get();
                        got = read(v, String.format("k%03d", k), p);
                    }
                    // The newest version of key k at or below p: the largest s <= p with s % 300 == k. A
                    // write published after the view was taken may be missed (the read then happened
                    // before it), one published before may not.
                    long newest = p - Math.floorMod(p - k, 300);
                    long oldestAllowed = p0 - Math.floorMod(p0 - k, 300);
                    if (newest <= cleared || clearedUpTo.get() != cleared) {
                        continue; // flushed to "disk" before or during the read
                    }
                    checked.incrementAndGet();
                    boolean ok;
                    if (got == null) {
                        // Only when the key had no version in memory published before the read began.
                        ok = oldestAllowed <= cleared;
                    } else {
                        long version = Long.parseLong(got.substring(1));
                        ok = version >= oldestAllowed && version <= newest && version > cleared
                                && Math.floorMod(version - k, 300) == 0;
                    }
                    if (!ok) {
                        failure.set("key " + k + " read " + got + " between sequences " + p0 + " and " + p);
                    }
                }
            });
            f.published.set(0);
            reader.start();
            for (long s = 1; s <= 30_000; s++) {
                f.put(String.format("k%03d", s % 300), s, String.format("v%06d", s));
                f.published.set(s);
                if (s % 12_000 == 0) {
                    f.store.snapshot();
                    // On "disk" before it leaves memory, as the engine installs a table before
                    // clearSnapshot(): a reader that misses the MemStore then knows to skip the check.
                    clearedUpTo.set(s);
                    f.store.clearSnapshot();
                }
            }
            done.set(true);
            reader.join();
            assertTrue(checked.get() > 0);
            assertNull(failure.get());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitQuiet(MemStoreFixture f) throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            Pipeline p = f.store.pipeline();
            boolean unflat = false;
            for (Segment s : p.segments) {
                unflat |= s instanceof SkipListSegment;
            }
            if (!unflat && p.segments.size() <= 2) {
                Thread.sleep(20);
                if (f.store.pipeline() == p) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("in-memory compaction did not settle");
    }
}
