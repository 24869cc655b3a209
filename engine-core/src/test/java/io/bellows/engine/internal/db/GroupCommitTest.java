package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent SYNC writers share WAL forces: fewer forces than writes, every write still durable. */
class GroupCommitTest {
    @TempDir
    Path dir;

    @Test
    void concurrentSyncWritersShareForces() throws Exception {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(DefaultFileSystem.forDirectory(dir, true));
        int threads = 8;
        int perThread = 150;
        EngineImpl db = EngineImpl.open(dir, EngineOptions.builder().walSyncInterval(java.time.Duration.ofHours(1)).build(), fs);
        long before = fs.operations(Op.SYNC, ".*\\.log");
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    db.put(String.format("t%d-%04d", id, i).getBytes(), new byte[64], WriteOptions.sync());
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        long syncs = fs.operations(Op.SYNC, ".*\\.log") - before;
        int writes = threads * perThread;
        assertTrue(syncs < writes, syncs + " WAL forces for " + writes + " SYNC writes: group commit must share forces");
        db.close();
        EngineImpl reopened = EngineImpl.open(dir, EngineOptions.defaults(), DefaultFileSystem.forDirectory(dir, true));
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                assertArrayEquals(new byte[64], reopened.get(String.format("t%d-%04d", t, i).getBytes()));
            }
        }
        reopened.close();
    }

    /**
     * Writers of every kind at once (single puts and deletes on the thread's reused batch, multi-op
     * batches, values too large for the reused batch to keep, every durability), some entering with
     * their interrupt flag set: each write lands once, in order per thread, before and after a reopen,
     * and a writer's interrupt flag survives its wait in the queue.
     */
    @Test
    void mixedWritersKeepEveryWriteAndTheirInterrupts() throws Exception {
        long seed = TestSeeds.seed("GroupCommitTest.mixedWriters");
        int threads = 8;
        int perThread = 300;
        EngineImpl db = EngineImpl.open(dir, EngineOptions.defaults(), DefaultFileSystem.forDirectory(dir, true));
        List<Map<String, byte[]>> models = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Map<String, byte[]> model = new HashMap<>();
            models.add(model);
            Random rnd = new Random(seed + t);
            int id = t;
            ts.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        WriteOptions wo = WriteOptions.of(Durability.values()[rnd.nextInt(Durability.values().length)]);
                        boolean interrupt = rnd.nextInt(5) == 0;
                        if (interrupt) {
                            Thread.currentThread().interrupt();
                        }
                        String key = "t" + id + "-" + rnd.nextInt(100);
                        int op = rnd.nextInt(10);
                        if (op == 0) {
                            db.delete(key.getBytes(), wo);
                            model.put(key, null);
                        } else if (op == 1) {
                            WriteBatch b = new WriteBatch();
                            for (int n = 1 + rnd.nextInt(5); n > 0; n--) {
                                String k = "t" + id + "-" + rnd.nextInt(100);
                                byte[] v = (k + "@" + i + "." + n).getBytes();
                                b.put(k.getBytes(), v);
                                model.put(k, v);
                            }
                            db.write(b, wo);
                        } else {
                            byte[] v = new byte[op == 2 ? 100_000 : 1 + rnd.nextInt(200)];
                            rnd.nextBytes(v);
                            db.put(key.getBytes(), v, wo);
                            model.put(key, v);
                        }
                        assertTrue(!interrupt || Thread.interrupted(), "the writer's interrupt flag was lost");
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertTrue(failures.isEmpty(), "writers failed (seed " + seed + "): " + failures);
        checkModels(db, models);
        db.close();
        EngineImpl reopened = EngineImpl.open(dir, EngineOptions.defaults(), DefaultFileSystem.forDirectory(dir, true));
        checkModels(reopened, models);
        reopened.close();
    }

    private static void checkModels(EngineImpl db, List<Map<String, byte[]>> models) {
        for (Map<String, byte[]> model : models) {
            for (Map.Entry<String, byte[]> e : model.entrySet()) {
                if (e.getValue() == null) {
                    assertNull(db.get(e.getKey().getBytes()), e.getKey());
                } else {
                    assertArrayEquals(e.getValue(), db.get(e.getKey().getBytes()), e.getKey());
                }
            }
        }
    }
}
