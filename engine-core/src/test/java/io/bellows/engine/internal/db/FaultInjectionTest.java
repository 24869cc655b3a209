package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Kind;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * I/O errors during flush, compaction and WAL writes: the store stays readable, retries background
 * work, never loses an acknowledged write and reopens cleanly.
 */
class FaultInjectionTest {
    private static final Path DIR = Path.of("/db");
    private final EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).build();

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i, int round) {
        return String.format("value-%d-%d-%s", i, round, "x".repeat(60)).getBytes();
    }

    @Test
    void flushFailuresAreRetriedAndLoseNothing() throws Exception {
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        fs.inject(Fault.on(Op.APPEND).pathMatching(".*\\.sst").times(Integer.MAX_VALUE).error(Kind.EIO));
        for (int i = 0; i < 1500; i++) {
            db.put(key(i), value(i, 0), WriteOptions.sync());
        }
        // The first flush is failing; every write is still readable from memory.
        for (int i = 0; i < 1500; i++) {
            assertArrayEquals(value(i, 0), db.get(key(i)));
        }
        // The flush runs on its own thread: wait until it has met the fault at least once.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (db.stats().background().errors() == 0 && fs.injected() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(db.stats().background().errors() > 0 || fs.injected() > 0, "no flush met the fault in 30 s");
        fs.clear();
        db.flush();
        assertTrue(db.stats().background().flushes() > 0);
        for (int i = 0; i < 1500; i++) {
            assertArrayEquals(value(i, 0), db.get(key(i)));
        }
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options, mem);
        for (int i = 0; i < 1500; i++) {
            assertArrayEquals(value(i, 0), reopened.get(key(i)));
        }
        reopened.close();
    }

    @Test
    void compactionFailuresLeaveInputsIntact() throws Exception {
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 3000; i++) {
            db.put(key(i), value(i, 0));
        }
        db.flush();
        fs.inject(Fault.on(Op.SYNC, Op.APPEND).pathMatching(".*\\.sst").after(3).times(5).error(Kind.ENOSPC));
        for (int i = 0; i < 3000; i++) {
            db.put(key(i), value(i, 1));
        }
        for (int i = 0; i < 3000; i += 3) {
            db.delete(key(i));
        }
        db.flush();
        db.compactRange(null, null);
        assertTrue(fs.injected() > 0, "faults must have fired");
        for (int i = 0; i < 3000; i++) {
            byte[] expect = i % 3 == 0 ? null : value(i, 1);
            assertArrayEquals(expect, db.get(key(i)), "key " + i);
        }
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options, mem);
        for (int i = 0; i < 3000; i++) {
            byte[] expect = i % 3 == 0 ? null : value(i, 1);
            assertArrayEquals(expect, reopened.get(key(i)), "key " + i + " after reopen");
        }
        reopened.close();
    }

    @Test
    void tornWalWriteFailsTheWriteAndRecoveryCutsIt() {
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 100; i++) {
            db.put(key(i), value(i, 0), WriteOptions.sync());
        }
        fs.inject(Fault.on(Op.APPEND).pathMatching(".*\\.log").error(Kind.TORN));
        assertThrows(EngineIOException.class, () -> db.put(key(100), value(100, 0), WriteOptions.sync()));
        // The torn log is abandoned: the next logged write starts a new log and succeeds.
        fs.clear();
        db.put(key(101), value(101, 0), WriteOptions.sync());
        assertArrayEquals(value(5, 0), db.get(key(5)));
        CrashableFileSystem crashed = mem.crash();
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options, crashed);
        for (int i = 0; i < 100; i++) {
            assertArrayEquals(value(i, 0), reopened.get(key(i)));
        }
        assertArrayEquals(value(101, 0), reopened.get(key(101)), "acknowledged after the torn write");
        reopened.close();
    }

    @Test
    void readErrorsSurfaceAsExceptionsNotWrongAnswers() {
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        EngineImpl db = EngineImpl.open(DIR, options.toBuilder().blockCacheSize(0).build(), fs);
        for (int i = 0; i < 500; i++) {
            db.put(key(i), value(i, 0));
        }
        db.flush();
        fs.inject(Fault.on(Op.READ).pathMatching(".*\\.sst").times(Integer.MAX_VALUE).error(Kind.EIO));
        assertThrows(EngineIOException.class, () -> db.get(key(7)));
        fs.clear();
        assertArrayEquals(value(7, 0), db.get(key(7)));
        db.close();
    }
}
