package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Engine.checkpoint under concurrent writes, for every scheme: the copy opens (after a crash of the
 * source machine right after the call, on a file system that keeps only what was synced) into the
 * state after a prefix of the writes that includes every write acknowledged before the call.
 */
class CheckpointTest {
    private static final Path DIR = Path.of("/db");
    private static final int KEYS = 4000;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i) {
        return ("value-" + i).getBytes();
    }

    @ParameterizedTest
    @EnumSource(CompactionStyle.class)
    void aCheckpointHoldsAPrefixWithEveryAcknowledgedWrite(CompactionStyle style) throws Exception {
        long seed = TestSeeds.seed("CheckpointTest[" + style + "]");
        Random rnd = new Random(seed);
        EngineOptions options = EngineConfigs.small(style, InMemoryCompaction.BASIC, MemoryLayout.ON_HEAP).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        // One writer puts key i = value i in order; writes i < acknowledged have returned.
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < KEYS && !stop.get(); i++) {
                db.put(key(i), value(i), i % 3 == 0 ? WriteOptions.noWal() : WriteOptions.async());
                acknowledged.set(i + 1);
            }
        });
        writer.start();
        while (acknowledged.get() < 500 + rnd.nextInt(2000)) {
            Thread.onSpinWait();
        }
        int before = acknowledged.get();
        Path target = Path.of("/checkpoint-" + style);
        db.checkpoint(target);
        stop.set(true);
        writer.join();
        assertThrows(IllegalArgumentException.class, () -> db.checkpoint(target), "an existing target is refused");
        CrashableFileSystem crashed = fs.crash(rnd.nextLong());
        db.close();

        EngineImpl copy = EngineImpl.open(target, options, crashed);
        for (int i = 0; i < before; i++) {
            assertArrayEquals(value(i), copy.get(key(i)), "seed=" + seed + ": write " + i + " of " + before
                    + " acknowledged before the call");
        }
        // After that, the logged writes present are a prefix of the logged writes; a write made without a
        // WAL during the call may be missing (it is durable only once flushed, as after any crash).
        boolean gap = false;
        for (int i = before; i < KEYS; i++) {
            byte[] v = copy.get(key(i));
            if (v != null) {
                assertArrayEquals(value(i), v, "seed=" + seed);
            }
            if (i % 3 != 0) {
                assertTrue(v == null || !gap, "seed=" + seed + ": logged write " + i + " present after a missing one");
                gap |= v == null;
            }
        }
        copy.close();
    }

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "TRIAD"})
    void aCheckpointOfACompactedStoreReadsBackAndIsIndependent(CompactionStyle style) {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions options = EngineConfigs.small(style, InMemoryCompaction.NONE).build();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < KEYS; i++) {
            db.put(key(i), value(i));
        }
        db.compactRange(null, null);
        db.delete(key(7));
        Path target = Path.of("/backup");
        db.checkpoint(target);
        // Writes after the call change the source only.
        db.put(key(8), "later".getBytes());
        db.compactRange(null, null);
        db.close();
        EngineImpl copy = EngineImpl.open(target, options, fs);
        assertNull(copy.get(key(7)));
        assertArrayEquals(value(8), copy.get(key(8)));
        assertArrayEquals(value(KEYS - 1), copy.get(key(KEYS - 1)));
        assertEquals(0, copy.stats().recovery().corruptRegions());
        copy.close();
    }
}
