package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compacting policies through the public API: options, reopen, snapshots, stats and metrics. */
class InMemoryCompactionTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("key%05d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value-%08d-padding-padding", i).getBytes();
    }

    /** HBASE-24892 / HBASE-26142 (settings ignored or failing late): every option is checked at build time. */
    @Test
    void hbase24892OptionsAreValidatedAndNameTheirLimits() {
        assertEquals(0.02, EngineOptions.defaults().activeSegmentFraction());
        assertEquals(0.2, EngineOptions.defaults().adaptiveThreshold());
        assertEquals(4, EngineOptions.defaults().pipelineSegments());
        assertEquals(2 << 20, EngineOptions.defaults().mslabChunkSize());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().activeSegmentFraction(0));
        assertTrue(e.getMessage().contains("activeSegmentFraction must be between 0.001 and 1.0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().activeSegmentFraction(Double.NaN));
        e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().pipelineSegments(65));
        assertTrue(e.getMessage().contains("pipelineSegments must be between 1 and 64"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().adaptiveThreshold(1.5));
        assertTrue(e.getMessage().contains("adaptiveThreshold must be between 0.0 and 1.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().mslabChunkSize(1000));
        assertTrue(e.getMessage().contains("mslabChunkSize must be between 4096 and 67108864"), e.getMessage());
        EngineOptions o = EngineOptions.builder().activeSegmentFraction(0.1).pipelineSegments(3)
                .adaptiveThreshold(0.2).mslabChunkSize(1 << 16).mslab(false).build();
        EngineOptions copy = o.toBuilder().build();
        assertEquals(0.1, copy.activeSegmentFraction());
        assertEquals(3, copy.pipelineSegments());
        assertEquals(0.2, copy.adaptiveThreshold());
        assertEquals(1 << 16, copy.mslabChunkSize());
        assertEquals(false, copy.mslab());
    }

    /** Nothing on disk depends on the policy: a store opens under each in turn with its data intact. */
    @Test
    void policyChangesOnReopen() {
        int n = 0;
        for (InMemoryCompaction policy : new InMemoryCompaction[] {InMemoryCompaction.BASIC, InMemoryCompaction.NONE,
            InMemoryCompaction.EAGER, InMemoryCompaction.ADAPTIVE, InMemoryCompaction.BASIC}) {
            EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, policy).build();
            try (Engine db = Engine.open(dir, o)) {
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(value(i), db.get(key(i)), policy + " reads key " + i);
                }
                for (int i = n; i < n + 3000; i++) {
                    db.put(key(i), value(i));
                }
                n += 3000;
            }
        }
    }

    @Test
    void snapshotReadsOldVersionsThroughInMemoryCompactions() {
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.EAGER)
                .memstoreSize(1 << 20).build();
        try (Engine db = Engine.open(dir, o)) {
            for (int i = 0; i < 50; i++) {
                db.put(key(i), value(i));
            }
            try (Snapshot s = db.snapshot()) {
                for (int round = 1; round <= 200; round++) {
                    for (int i = 0; i < 50; i++) {
                        db.put(key(i), value(round * 1000 + i));
                    }
                }
                EngineStats st = db.stats();
                assertTrue(st.memstore().inMemoryCompactions() > 0);
                assertTrue(st.memstore().inMemoryBytesEliminated() > 0);
                for (int i = 0; i < 50; i++) {
                    assertArrayEquals(value(i), db.get(key(i), ReadOptions.at(s)), "snapshot read of " + i);
                    assertArrayEquals(value(200_000 + i), db.get(key(i)));
                }
                try (Cursor c = db.cursor(ReadOptions.at(s))) {
                    int i = 0;
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        assertArrayEquals(value(i++), c.value());
                    }
                    assertEquals(50, i);
                }
            }
        }
    }

    @Test
    void statsAndMetricsReportInMemoryWorkBySegmentKind() {
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.BASIC)
                .memstoreSize(1 << 20).build();
        try (Engine db = Engine.open(dir, o)) {
            for (int i = 0; i < 5000; i++) {
                db.put(key(i % 2000), value(i));
            }
            EngineStats st = db.stats();
            assertTrue(st.memstore().inMemoryFlushes() > 0);
            assertTrue(st.memstore().inMemoryFlattens() + st.memstore().inMemoryMerges() > 0);
            assertTrue(st.memstore().skiplist().entries() + st.memstore().flat().entries() > 0);
            // BASIC moves no data, so the split by kind adds up even while a flatten runs.
            EngineStats.MemStore ms = st.memstore();
            assertEquals(ms.dataBytes(), ms.skiplist().dataBytes() + ms.flat().dataBytes());
            assertTrue(st.memstore().flat().heapBytes() >= st.memstore().flat().dataBytes());
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            db.metrics("m").bindTo(registry);
            assertTrue(registry.get("bellows.memstore.inmemory.flushes").functionCounter().count() > 0);
            registry.get("bellows.memstore.segment.heap").tag("kind", "flat").gauge();
            registry.get("bellows.memstore.segment.data").tag("kind", "skiplist").gauge();
            registry.get("bellows.memstore.eliminated").functionCounter();
            registry.get("bellows.memstore.adaptive.throttle").gauge();
            assertTrue(registry.get("bellows.memstore.segments").gauge().value() >= 0);
        }
    }
}
