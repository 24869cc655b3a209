package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TRIAD-DISK through the engine: flushes of disjoint keys stay in L0 until L0 holds its maximum (6), the
 * sketches come back from the tables after a reopen, and flushes of the same keys compact at the leveled
 * trigger. Decisions are read from {@link EngineStats#scheme()} and the {@code bellows.scheme} gauges.
 */
class TriadDiskEngineTest {
    private static final Path DIR = Path.of("/db");
    private final EngineOptions options = EngineConfigs.small(CompactionStyle.TRIAD, InMemoryCompaction.NONE).build();

    private static byte[] key(int table, int i) {
        return String.format("t%02d-%05d", table, i).getBytes();
    }

    private static byte[] value(int table, int i) {
        return ("v" + table + "-" + i + "-" + "x".repeat(80)).getBytes();
    }

    private static void flushKeys(EngineImpl db, int prefix, int valueTag) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            db.put(key(prefix, i), value(valueTag, i));
        }
        db.flush();
        while (!EngineProbe.settled(db)) {
            Thread.sleep(2);
        }
    }

    private static int l0(EngineImpl db) {
        return db.stats().levels().perLevel().get(0).tables();
    }

    @Test
    void disjointFlushesWaitForTheMaximumAcrossAReopen() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        try {
            for (int t = 0; t < 4; t++) {
                flushKeys(db, t, t);
                assertEquals(t + 1, l0(db), "flush " + (t + 1) + " of disjoint keys stays in L0");
            }
            Map<String, Double> f = db.stats().scheme();
            assertEquals(3.0, f.get("l0.deferred"), "deferred at 2, 3 and 4 tables: " + f);
            assertTrue(f.get("l0.overlap.ratio") < 0.05, f.toString());
        } finally {
            db.close();
        }
        db = EngineImpl.open(DIR, options, fs);
        try {
            assertEquals(4, l0(db));
            flushKeys(db, 4, 4);
            assertEquals(5, l0(db), "the reopened store still defers: its sketches were read back from the tables");
            flushKeys(db, 5, 5);
            Map<String, Double> f = db.stats().scheme();
            assertEquals(0, l0(db), "six tables: forced");
            assertEquals(1.0, f.get("l0.forced"), f.toString());
            assertEquals(0.0, f.get("l0.unsketched"), f.toString());
            for (int t = 0; t < 6; t++) {
                assertArrayEquals(value(t, 7), db.get(key(t, 7)));
            }
        } finally {
            db.close();
        }
    }

    @Test
    void overlappingFlushesCompactAtTheLeveledTrigger() throws Exception {
        EngineImpl db = EngineImpl.open(DIR, options, new CrashableFileSystem());
        try {
            flushKeys(db, 0, 0);
            flushKeys(db, 0, 1);
            Map<String, Double> f = db.stats().scheme();
            assertEquals(0, l0(db), "the same 200 keys twice: ratio 0.5, compacted at 2 tables");
            assertEquals(1.0, f.get("l0.run"), f.toString());
            assertEquals(0.5, f.get("l0.overlap.ratio"), 0.03);
            assertArrayEquals(value(1, 3), db.get(key(0, 3)));
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            db.metrics("triad").bindTo(registry);
            assertEquals(1.0, registry.get("bellows.scheme").tag("figure", "l0.run").gauge().value());
            assertEquals(0.5, registry.get("bellows.scheme").tag("figure", "l0.overlap.ratio").gauge().value(), 0.03);
            assertEquals(2.0, registry.get("bellows.scheme").tag("figure", "mem.flushes").gauge().value());
        } finally {
            db.close();
        }
    }
}
