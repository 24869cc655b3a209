package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
}
