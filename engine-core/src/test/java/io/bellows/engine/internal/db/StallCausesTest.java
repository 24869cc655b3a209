package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.WritableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Stall time is told by cause: a writer held up by an unflushed MemStore waits for a flush, one held up
 * by L0 at its stop mark is stopped by compaction, and the causes add up to the stall time.
 */
class StallCausesTest {
    private static final Path DIR = Path.of("/db");

    @Test
    void aWriterBehindAFlushWaitsForTheFlush() throws Exception {
        Gate gate = new Gate("bellows-flush");
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).l0Triggers(50, 60, 70)
                .build();
        EngineStats.Background bg = stallBehind(gate, o, db -> db.stats().background().stalls() > 0);
        EngineStats.StallCauses c = bg.stallCauses();
        assertTrue(c.flushNanos() > 0, bg.toString());
        assertEquals(0, c.stopNanos() + c.memoryNanos() + c.delayNanos(), bg.toString());
        assertEquals(bg.stallNanos(), c.delayNanos() + c.stopNanos() + c.flushNanos() + c.memoryNanos(), bg.toString());
    }

    @Test
    void aWriterBehindL0IsStoppedByCompaction() throws Exception {
        Gate gate = new Gate("bellows-compaction");
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).l0Triggers(1, 2, 3)
                .backgroundThreads(1)
                .build();
        EngineStats.Background bg = stallBehind(gate, o, db -> db.versions().current().files(0).size() >= 3);
        EngineStats.StallCauses c = bg.stallCauses();
        assertTrue(c.stopNanos() > 0, bg.toString());
        assertTrue(c.delayNanos() > 0, "L0 passed its slowdown mark on the way: " + bg);
        assertEquals(0, c.memoryNanos(), bg.toString());
        assertEquals(bg.stallNanos(), c.delayNanos() + c.stopNanos() + c.flushNanos() + c.memoryNanos(), bg.toString());
    }

    /**
     * Writes from another thread with {@code gate}'s thread held until {@code stalled} holds, then lets
     * that thread go and returns the counters once the writes are done.
     */
    private static EngineStats.Background stallBehind(Gate gate, EngineOptions o, Predicate<EngineImpl> stalled)
            throws Exception {
        try (EngineImpl db = EngineImpl.open(DIR, o, gate)) {
            gate.close();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    // Out of order, so that compactions merge (write tables) rather than move them.
                    db.put(String.format("key%08d", (i * 7919) % 20_000).getBytes(), new byte[100]);
                }
            });
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!gate.holding() || !stalled.test(db)) {
                assertTrue(System.nanoTime() < deadline, "no stall: " + db.stats().background());
                Thread.sleep(5);
            }
            Thread.sleep(50);
            gate.open();
            writer.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!writer.isAlive(), "the writer finished");
            return db.stats().background();
        }
    }

    /** Holds table creation on threads named {@code prefix}... while closed. */
    private static final class Gate extends DelegatingFileSystem {
        private final String prefix;
        private volatile CountDownLatch latch = new CountDownLatch(0);
        private volatile boolean holding;

        Gate(String prefix) {
            super(new CrashableFileSystem());
            this.prefix = prefix;
        }

        void close() {
            latch = new CountDownLatch(1);
        }

        void open() {
            latch.countDown();
        }

        boolean holding() {
            return holding;
        }

        @Override
        public WritableFile createTable(Path path) throws IOException {
            if (Thread.currentThread().getName().startsWith(prefix)) {
                try {
                    holding = latch.getCount() > 0;
                    latch.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return fs.createTable(path);
        }
    }
}
