package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Bytes;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** FLSM end to end through the engine: guard invariants, guard life cycle, recovery, open cost. */
class FlsmSchemeTest {
    private static final Path DIR = Path.of("/db");

    private static EngineOptions.Builder options() {
        return EngineConfigs.small(CompactionStyle.FLSM, InMemoryCompaction.NONE);
    }

    /** {@link #options()} without guard retirement: every guard chosen is committed, whatever it holds. */
    private static EngineOptions.Builder keepingGuards() {
        return options().compaction(EngineConfigs.smallFlsm().guardMinBytes(0).build());
    }

    private static byte[] key(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    private static byte[] value(Random rnd) {
        byte[] v = new byte[20 + rnd.nextInt(60)];
        rnd.nextBytes(v);
        return v;
    }

    @Test
    void guardsStayNestedAndNoTableStraddlesOne() throws Exception {
        long seed = TestSeeds.seed("FlsmSchemeTest.invariants");
        Random rnd = new Random(seed);
        EngineOptions o = options().backgroundThreads(3).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 40_000; i++) {
                byte[] k = key(rnd.nextInt(2_500));
                if (rnd.nextInt(10) == 0) {
                    db.delete(k, WriteOptions.defaults());
                    model.remove(k);
                } else {
                    byte[] v = value(rnd);
                    db.put(k, v, WriteOptions.defaults());
                    model.put(k, v);
                }
            }
            db.flush();
            FlsmStore.awaitQuiet(db);
            assertMatches(model, db);
            assertEquals(0, db.stats().background().errors(), "seed=" + seed);
        }
        FlsmStore store = FlsmStore.open(DIR, fs, o);
        store.checkInvariants();
        // Once compaction settles, every level above the last may legitimately be empty (its guards pushed
        // down, small ones retired), so the test asks for data at the last level and guards at every level.
        assertTrue(store.lastLevelTables() > 0, "data must reach the last level, seed=" + seed);
        for (int level = 2; level < o.numLevels(); level++) {
            assertTrue(store.committedGuards(level) > 0, "no committed guard at L" + level + ", seed=" + seed);
        }
        assertTrue(store.committedGuards(o.numLevels() - 1) > store.committedGuards(2), "deeper levels have more guards");
    }

    @Test
    void guardsChosenBeforeACrashAreRecoveredUncommittedAndCommittedLater() throws Exception {
        EngineOptions noCompaction = keepingGuards().l0Triggers(100, 200, 300).build();
        FlsmOptions flsm = (FlsmOptions) noCompaction.compactionOptions();
        GuardHash hash = new GuardHash(flsm.topLevelBits(), flsm.bitDecrement(), noCompaction.numLevels());
        List<byte[]> guardKeys = new ArrayList<>();
        for (long n = 0; guardKeys.size() < 5; n++) {
            if (hash.topLevel(key(n)) == 1) {
                guardKeys.add(key(n));
            }
        }
        Random rnd = new Random(7);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, noCompaction, fs);
        for (long n = 0; n < 4_000; n++) {
            byte[] v = value(rnd);
            db.put(key(n), v, WriteOptions.defaults());
            model.put(key(n), v);
        }
        db.flush();
        // The flush recorded the guards; nothing has compacted, so none is committed. Crash now.
        assertEquals(0, db.stats().background().compactions());
        CrashableFileSystem crashed = fs.crash();
        db.close();

        FlsmStore recovered = FlsmStore.open(DIR, crashed, noCompaction);
        synchronized (recovered.scheme) {
            for (byte[] k : guardKeys) {
                GuardSet.Guard g = recovered.scheme.guards().get(k);
                assertTrue(g != null, "guard " + Bytes.toHex(k) + " lost in the crash");
                assertEquals(1, g.top);
                assertFalse(g.committedAt(noCompaction.numLevels() - 1), "committed without a compaction");
            }
        }

        EngineOptions o = keepingGuards().build();
        try (EngineImpl reopened = EngineImpl.open(DIR, o, crashed)) {
            reopened.compactRange(null, null);
            FlsmStore.awaitQuiet(reopened);
            assertMatches(model, reopened);
        }
        FlsmStore after = FlsmStore.open(DIR, crashed, o);
        after.checkInvariants();
        synchronized (after.scheme) {
            for (byte[] k : guardKeys) {
                GuardSet.Guard g = after.scheme.guards().get(k);
                assertTrue(g.committedAt(o.numLevels() - 1), "guard " + Bytes.toHex(k) + " never committed");
            }
        }
    }

    @Test
    void reopeningAMultiLevelStoreReadsNoDataBlock() throws Exception {
        Random rnd = new Random(11);
        EngineOptions o = options().build();
        CrashableFileSystem fs = new CrashableFileSystem();
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 30_000; i++) {
                db.put(key(rnd.nextInt(2_000)), value(rnd), WriteOptions.defaults());
            }
            db.flush();
            FlsmStore.awaitQuiet(db);
        }
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            EngineStats st = db.stats();
            int levels = 0;
            for (int level = 1; level < st.levels().count(); level++) {
                levels += st.levels().get(level).tables() > 0 ? 1 : 0;
            }
            assertTrue(levels >= 2, "the store must span several guarded levels: " + st);
            assertEquals(0, st.reads().blockReads(), "opening read data blocks");
            assertEquals(0, st.background().compactions());
            db.get(key(1), ReadOptions.defaults());
            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                c.seekToFirst();
            }
            assertTrue(db.stats().reads().blockReads() > 0, "reads are counted");
        }
    }

    @Test
    void guardsOfADeletedRangeAreDeleted() throws Exception {
        EngineOptions o = options().numLevels(3)
                .compaction(EngineConfigs.smallFlsm().guardBits(8, 2).maxTablesPerGuard(2).guardMinBytes(0).build()).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        Random rnd = new Random(3);
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (long n = 0; n < 6_000; n++) {
                db.put(key(n), value(rnd), WriteOptions.defaults());
            }
            db.compactRange(null, null);
            FlsmStore.awaitQuiet(db);
        }
        // Guards whose whole range (at their shallowest committed level) lies in the range deleted below.
        List<byte[]> doomed = new ArrayList<>();
        FlsmStore before = FlsmStore.open(DIR, fs, o);
        synchronized (before.scheme) {
            for (GuardSet.Guard g : before.scheme.guards().all().values()) {
                if (!g.committedAt(2)) {
                    continue;
                }
                GuardLevel top = before.index.levels[g.committedFrom];
                byte[] upper = top.upper(top.find(g.key));
                if (Bytes.compare(g.key, key(500)) >= 0 && upper != null && Bytes.compare(upper, key(4_500)) <= 0) {
                    doomed.add(g.key);
                }
            }
        }
        assertTrue(doomed.size() > 3, "the range must hold several committed guards");
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (long n = 500; n < 4_500; n++) {
                db.delete(key(n), WriteOptions.defaults());
            }
            db.compactRange(null, null);
            FlsmStore.awaitQuiet(db);
            assertNull(db.get(key(2_000), ReadOptions.defaults()));
            assertTrue(db.get(key(5_000), ReadOptions.defaults()) != null);
        }
        FlsmStore after = FlsmStore.open(DIR, fs, o);
        after.checkInvariants();
        synchronized (after.scheme) {
            for (byte[] k : doomed) {
                assertNull(after.scheme.guards().get(k), "guard " + Bytes.toHex(k) + " of an emptied range survived");
            }
            assertTrue(after.committedGuards(2) > 0, "guards outside the deleted range remain");
        }
    }

    @Test
    void consecutiveSeeksCompactTheGuardUnderThem() throws Exception {
        EngineOptions o = options().compaction(EngineConfigs.smallFlsm().maxTablesPerGuard(50).guardMaxBytes(1 << 30)
                .seekCompactionThreshold(5).build()).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        Random rnd = new Random(5);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 12_000; i++) {
                byte[] k = key(rnd.nextInt(3_000));
                byte[] v = value(rnd);
                db.put(k, v, WriteOptions.defaults());
                model.put(k, v);
            }
            db.flush();
            FlsmStore.awaitQuiet(db);
            long before = db.stats().background().compactions();
            // A write between seeks restarts the count: no seek-based compaction.
            for (int i = 0; i < 20; i++) {
                seek(db, key(rnd.nextInt(3_000)));
                byte[] k = key(rnd.nextInt(3_000));
                byte[] v = value(rnd);
                db.put(k, v, WriteOptions.defaults());
                model.put(k, v);
            }
            FlsmStore.awaitQuiet(db);
            assertEquals(before, db.stats().background().compactions(), "seeks interleaved with writes compacted");
            for (int i = 0; i < 200; i++) {
                seek(db, key(rnd.nextInt(3_000)));
            }
            FlsmStore.awaitQuiet(db);
            assertTrue(db.stats().background().compactions() > before,
                    "200 seeks without writes started no compaction");
            assertMatches(model, db);
        }
        FlsmStore.open(DIR, fs, o).checkInvariants();
    }

    @Test
    void parallelSeeksFindWhatSequentialSeeksFind() throws Exception {
        // Guards that keep many tables, so last-level guards hold several to seek in parallel.
        EngineOptions o = options().compaction(EngineConfigs.smallFlsm().maxTablesPerGuard(6).parallelSeeks(true).build())
                .build();
        CrashableFileSystem fs = new CrashableFileSystem();
        Random rnd = new Random(9);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 20_000; i++) {
                byte[] k = key(rnd.nextInt(2_000));
                byte[] v = value(rnd);
                db.put(k, v, WriteOptions.defaults());
                model.put(k, v);
            }
            db.compactRange(null, null);
            for (int i = 0; i < 3_000; i++) {
                byte[] k = key(rnd.nextInt(2_000));
                byte[] v = value(rnd);
                db.put(k, v, WriteOptions.defaults());
                model.put(k, v);
            }
            db.compactRange(null, null);
            FlsmStore.awaitQuiet(db);
            assertMatches(model, db);
            for (int i = 0; i < 500; i++) {
                byte[] target = key(rnd.nextInt(2_100));
                Map.Entry<byte[], byte[]> want = model.ceilingEntry(target);
                try (Cursor c = db.cursor(ReadOptions.defaults())) {
                    c.seek(target);
                    for (int n = 0; n < 3 && want != null; n++) {
                        assertArrayEquals(want.getKey(), c.key());
                        assertArrayEquals(want.getValue(), c.value());
                        c.next();
                        want = model.higherEntry(want.getKey());
                    }
                    // Seeks for prev pre-seek the guard's tables backward, then the walk turns forward.
                    want = model.floorEntry(target);
                    c.seekForPrev(target);
                    for (int n = 0; n < 3 && want != null; n++) {
                        assertArrayEquals(want.getKey(), c.key());
                        assertArrayEquals(want.getValue(), c.value());
                        c.prev();
                        want = model.lowerEntry(want.getKey());
                    }
                    if (want == null) {
                        assertFalse(c.isValid());
                    } else {
                        c.next();
                        assertArrayEquals(model.higherKey(want.getKey()), c.key());
                    }
                }
            }
        }
        FlsmStore store = FlsmStore.open(DIR, fs, o);
        GuardLevel bottom = store.index.levels[o.numLevels() - 1];
        int maxDepth = 0;
        for (int d : bottom.depth) {
            maxDepth = Math.max(maxDepth, d);
        }
        assertTrue(maxDepth >= 2, "some last-level guard must hold overlapping tables");
    }

    private static void seek(EngineImpl db, byte[] k) {
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            c.seek(k);
        }
    }

    private static void assertMatches(TreeMap<byte[], byte[]> model, EngineImpl db) {
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            c.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertTrue(c.isValid(), "cursor ended before " + Bytes.toHex(e.getKey()));
                assertArrayEquals(e.getKey(), c.key());
                assertArrayEquals(e.getValue(), c.value());
                c.next();
            }
            assertFalse(c.isValid(), "cursor has extra entries");
        }
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), db.get(e.getKey(), ReadOptions.defaults()));
        }
    }
}
