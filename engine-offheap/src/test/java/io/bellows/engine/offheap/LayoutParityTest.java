package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreContext;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.memstore.MemStores;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.offheap.ModelCells.Entry;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same writes, read points and in-memory policy give the same MemStore contents under ON_HEAP and
 * OFF_HEAP: both layouts drop exactly the same versions (they share {@link io.bellows.engine.internal.memstore.spi.Retention}
 * but not the merge that feeds it), and flattening and merging lose nothing.
 */
class LayoutParityTest {
    /** Runs queued compactions only when the test says so, so both MemStores compact at the same points. */
    private static final class ManualExecutor implements Executor {
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        void runAll() {
            Runnable r;
            while ((r = poll()) != null) {
                r.run();
            }
        }

        private synchronized Runnable poll() {
            return queue.poll();
        }
    }

    private static final class Side {
        final ManualExecutor executor = new ManualExecutor();
        final MemStoreCounters counters = new MemStoreCounters();
        final MemStore store;

        Side(EngineOptions options, AtomicLong published, long[][] snapshots) {
            store = MemStores.create(options, new MemStoreContext(published::get, () -> snapshots[0], executor,
                    counters, () -> {}));
        }

        /** Every entry of every segment a reader sees. */
        TreeSet<Entry> contents() {
            TreeSet<Entry> all = new TreeSet<>(ModelCells.ORDER);
            try (MemStoreView v = store.view()) {
                for (Segment s : v.segments()) {
                    try (InternalIterator it = s.iterator()) {
                        for (it.seekToFirst(); it.isValid(); it.next()) {
                            assertTrue(all.add(new Entry(it.key(), it.sequence(), it.kind(), it.value())),
                                    "no entry in two segments");
                        }
                    }
                }
            }
            return all;
        }
    }

    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"BASIC", "EAGER"})
    void onHeapAndOffHeapKeepTheSameVersions(InMemoryCompaction policy) {
        long seed = TestSeeds.seed("LayoutParityTest[" + policy + "]");
        Random rnd = new Random(seed);
        String ctx = policy + " seed=" + seed;
        EngineOptions.Builder b = EngineOptions.builder().inMemoryCompaction(policy).memstoreSize(1 << 20)
                .activeSegmentFraction(0.01).pipelineSegments(2).mslabChunkSize(4096);
        AtomicLong published = new AtomicLong();
        long[][] snapshots = {new long[0]};
        Side onHeap = new Side(b.memoryLayout(MemoryLayout.ON_HEAP).build(), published, snapshots);
        Side offHeap = new Side(b.memoryLayout(MemoryLayout.OFF_HEAP).build(), published, snapshots);
        try {
            ModelCells gen = new ModelCells(rnd, 150, 600);
            TreeSet<Entry> written = new TreeSet<>(ModelCells.ORDER);
            TreeSet<Long> liveSnapshots = new TreeSet<>();
            for (int i = 0; i < 6000; i++) {
                Entry e = gen.next();
                written.add(e);
                for (Side side : new Side[] {onHeap, offHeap}) {
                    side.store.add(e.key(), e.seq(), e.kind(), e.value());
                    side.store.endWrite();
                }
                published.set(e.seq());
                if (rnd.nextInt(200) == 0) {
                    liveSnapshots.add(e.seq());
                } else if (rnd.nextInt(300) == 0 && !liveSnapshots.isEmpty()) {
                    liveSnapshots.pollFirst();
                }
                snapshots[0] = liveSnapshots.stream().mapToLong(Long::longValue).toArray();
                if (rnd.nextInt(10) == 0) {
                    onHeap.executor.runAll();
                    offHeap.executor.runAll();
                }
                if (i % 1000 == 999) {
                    onHeap.executor.runAll();
                    offHeap.executor.runAll();
                    TreeSet<Entry> on = onHeap.contents();
                    assertEquals(on, offHeap.contents(), ctx + ": contents after " + (i + 1) + " writes");
                    assertTrue(written.containsAll(on), ctx + ": nothing made up");
                }
            }
            assertEquals(onHeap.counters.compactions.sum(), offHeap.counters.compactions.sum(), ctx);
            assertEquals(onHeap.counters.merges.sum(), offHeap.counters.merges.sum(), ctx);
            assertEquals(onHeap.counters.cellsEliminated.sum(), offHeap.counters.cellsEliminated.sum(), ctx);
            assertEquals(onHeap.counters.bytesEliminated.sum(), offHeap.counters.bytesEliminated.sum(), ctx);
            if (policy == InMemoryCompaction.EAGER) {
                assertTrue(offHeap.counters.cellsEliminated.sum() > 0, ctx + ": versions were dropped");
            } else {
                assertEquals(0, offHeap.counters.cellsEliminated.sum(), ctx + ": BASIC drops nothing");
                assertTrue(offHeap.counters.merges.sum() > 0, ctx + ": merges ran");
            }
        } finally {
            onHeap.store.close();
            offHeap.store.close();
        }
        assertEquals(0, offHeap.store.stats().pool.chunksInUse(), ctx + ": closed with no view open");
    }
}
