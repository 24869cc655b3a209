package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Regressions found in review of the I/O-error paths: manifest failures, close, interrupts. */
class IoFailureRegressionTest {
    private static final Path DIR = Path.of("/db");
    private final EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE)
            .l0Triggers(100, 200, 300).maxBytesForLevelBase(1L << 30).build();

    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value-%d-%s", i, "x".repeat(60)).getBytes();
    }

    /**
     * A failed manifest sync must neither delete tables the (possibly durable) edit names nor let a
     * later edit land in the damaged manifest.
     */
    @Test
    void manifestSyncFailureDuringCompactionLosesNothing() {
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 500; i++) {
            db.put(key(i), value(i), WriteOptions.sync());
        }
        db.flush();
        fs.inject(Fault.on(Op.SYNC).pathMatching("MANIFEST-.*"));
        assertThrows(RuntimeException.class, () -> db.compactRange(null, null));
        fs.clear();
        db.put(key(1000), value(1000), WriteOptions.sync());
        db.flush();
        for (int i = 0; i < 500; i++) {
            assertArrayEquals(value(i), db.get(key(i)), "before reopen " + i);
        }
        CrashableFileSystem crashed = mem.crash();
        db.close();
        for (CrashableFileSystem f : new CrashableFileSystem[] {crashed, mem}) {
            EngineImpl reopened = EngineImpl.open(DIR, options, f);
            try {
                for (int i = 0; i < 500; i++) {
                    assertArrayEquals(value(i), reopened.get(key(i)), "after reopen " + i);
                }
                assertArrayEquals(value(1000), reopened.get(key(1000)));
                reopened.compactRange(null, null);
                assertArrayEquals(value(7), reopened.get(key(7)));
            } finally {
                reopened.close();
            }
        }
    }

    @Test
    void closeDoesNotHangBehindAFailingFlush() throws InterruptedException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new CrashableFileSystem());
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        db.put("a".getBytes(), "b".getBytes(), WriteOptions.noWal());
        fs.inject(Fault.on(Op.APPEND).pathMatching(".*\\.sst").times(Integer.MAX_VALUE));
        Thread t = new Thread(db::close);
        t.setDaemon(true);
        t.start();
        t.join(30_000);
        assertFalse(t.isAlive(), "close must return although every flush fails");
    }

    @Test
    void interruptedCallersDoNotBreakTheEngineForOthers() throws Exception {
        EngineOptions o = options.toBuilder().blockCacheSize(0).build();
        Engine db = EngineImpl.open(tmp, o);
        for (int i = 0; i < 2000; i++) {
            db.put(key(i), value(i));
        }
        db.flush();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                db.get(key(5));
            } catch (RuntimeException expected) {
                // an interrupted read may fail; it must not break the table for other threads
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        reader.start();
        reader.join();
        assertTrue(stillInterrupted.get(), "the caller's interrupt status is kept");
        assertArrayEquals(value(7), db.get(key(7)));
        Thread writer = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                db.put(key(5000), value(5000), WriteOptions.sync());
            } catch (RuntimeException expected) {
                // may fail; later writes by others must work
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        writer.start();
        writer.join();
        assertTrue(stillInterrupted.get(), "the writer's interrupt status is kept");
        db.put(key(5001), value(5001), WriteOptions.sync());
        db.compactRange(null, null);
        assertArrayEquals(value(5001), db.get(key(5001)));
        assertArrayEquals(value(3), db.get(key(3)));
        db.close();
        Engine reopened = EngineImpl.open(tmp, o);
        assertArrayEquals(value(5001), reopened.get(key(5001)));
        reopened.close();
    }
}
