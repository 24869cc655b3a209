package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every write that returns normally before or during {@code close()} is in the store after the reopen,
 * unlogged (Durability.NONE) writes included; writes that come later get EngineClosedException. Before the
 * fix close flushed the MemStore and only then stopped taking writes: NONE writes that returned during the
 * flush were lost, in 10 of 10 rounds (issue 21).
 */
class CloseDuringWritesTest {
    private static final Path DIR = Path.of("/db");

    @Test
    void writesThatReturnDuringCloseSurviveIt() throws Exception {
        long seed = TestSeeds.seed("CloseDuringWritesTest");
        Random rnd = new Random(seed);
        for (InMemoryCompaction policy : new InMemoryCompaction[] {InMemoryCompaction.NONE, InMemoryCompaction.BASIC}) {
            EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, policy).build();
            for (int round = 0; round < 5; round++) {
                CrashableFileSystem fs = new CrashableFileSystem();
                EngineImpl db = EngineImpl.open(DIR, options, fs);
                int threads = 4;
                long[] acknowledged = new long[threads];
                AtomicReference<Throwable> failure = new AtomicReference<>();
                List<Thread> writers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    // Two writers skip the WAL, one writes ASYNC, one alternates.
                    WriteOptions[] wo = id < 2 ? new WriteOptions[] {WriteOptions.noWal()}
                            : id == 2 ? new WriteOptions[] {WriteOptions.async()}
                            : new WriteOptions[] {WriteOptions.noWal(), WriteOptions.async()};
                    Thread w = new Thread(() -> {
                        try {
                            for (long n = 0; ; n++) {
                                db.put(key(id, n), value(id, n), wo[(int) (n % wo.length)]);
                                acknowledged[id] = n + 1;
                            }
                        } catch (EngineClosedException expected) {
                            // close has begun: this write and every later one are refused
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    writers.add(w);
                    w.start();
                }
                Thread.sleep(20 + rnd.nextInt(60));
                db.close();
                for (Thread w : writers) {
                    w.join();
                }
                if (failure.get() != null) {
                    throw new AssertionError("writer failed (seed " + seed + ")", failure.get());
                }
                EngineImpl reopened = EngineImpl.open(DIR, options, fs);
                try {
                    long total = 0;
                    for (int t = 0; t < threads; t++) {
                        for (long n = 0; n < acknowledged[t]; n++) {
                            assertArrayEquals(value(t, n), reopened.get(key(t, n)), "seed " + seed + ", " + policy
                                    + " round " + round + ": writer " + t + " write " + n + " of " + acknowledged[t]);
                        }
                        total += acknowledged[t];
                    }
                    assertTrue(total > 0, "the writers wrote before close");
                } finally {
                    reopened.close();
                }
            }
        }
    }

    @Test
    void writesAfterCloseAreRefused() {
        EngineImpl db = EngineImpl.open(DIR, EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).build(),
                new CrashableFileSystem());
        db.close();
        EngineClosedException e = assertThrows(EngineClosedException.class,
                () -> db.put(key(0, 0), value(0, 0), WriteOptions.noWal()));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(0, db.snapshotCount());
    }

    private static byte[] key(int thread, long n) {
        return String.format("w%d-%08d", thread, n).getBytes();
    }

    private static byte[] value(int thread, long n) {
        return String.format("value-%d-%d-%s", thread, n, "x".repeat(60)).getBytes();
    }
}
