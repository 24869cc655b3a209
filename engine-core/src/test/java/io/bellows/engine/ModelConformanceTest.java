package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.util.Bytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The randomized model test (LevelDB's ModelDB test, Pebble's metamorphic idea): random puts,
 * deletes, batches, gets, bounded cursors (forward, backward against the descending map, and turning
 * at random, from all four seeks), snapshots, flushes, range compactions and reopens against
 * a TreeMap, under every scheme × policy. Any divergence fails with the seed that replays it.
 *
 * <p>LSM_TRIE keeps no key order on disk: there every cursor check asserts the
 * UnsupportedOperationException instead, and full comparisons get every key of the (finite) key space.
 */
class ModelConformanceTest {
    /**
     * Sized for CI time: the run's cost is the fsyncs of its flushes, compactions and reopens (FLSM's
     * in-place last-level merges most), about 2 ms of a 2-core machine's disk each, not the operations.
     */
    private static final int OPS = 12000;
    private static final int KEY_SPACE = 1500;

    @TempDir
    Path dir;

    private Random rnd;
    private boolean ordered;

    @ParameterizedTest(name = "{0}/{1}/{2}")
    @MethodSource("io.bellows.engine.EngineConfigs#all")
    void randomOperationsMatchModel(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout) {
        long seed = TestSeeds.seed("ModelConformanceTest[" + style + "/" + policy + "]");
        rnd = new Random(seed);
        ordered = style != CompactionStyle.LSM_TRIE;
        EngineOptions options = EngineConfigs.small(style, policy, layout).build();
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        Map<Snapshot, TreeMap<byte[], byte[]>> snaps = new HashMap<>();
        Engine db = Engine.open(dir, options);
        long flushes = 0;
        long compactions = 0;
        try {
            for (int op = 0; op < OPS; op++) {
                int r = rnd.nextInt(1000);
                String where = "seed=" + seed + " op=" + op;
                if (r < 450) {
                    byte[] k = key();
                    byte[] v = value();
                    db.put(k, v, randomWriteOptions());
                    model.put(k, v);
                } else if (r < 550) {
                    byte[] k = key();
                    db.delete(k, randomWriteOptions());
                    model.remove(k);
                } else if (r < 620) {
                    WriteBatch b = new WriteBatch();
                    TreeMap<byte[], byte[]> next = new TreeMap<>(model);
                    int n = 1 + rnd.nextInt(20);
                    for (int i = 0; i < n; i++) {
                        byte[] k = key();
                        if (rnd.nextInt(4) == 0) {
                            b.delete(k);
                            next.remove(k);
                        } else {
                            byte[] v = value();
                            b.put(k, v);
                            next.put(k, v);
                        }
                    }
                    db.write(b, randomWriteOptions());
                    model = next;
                } else if (r < 820) {
                    byte[] k = key();
                    assertArrayEquals(model.get(k), db.get(k), where + " get " + Bytes.toHex(k));
                } else if (r < 870) {
                    checkCursor(db, ReadOptions.defaults(), model, where);
                } else if (r < 900) {
                    if (snaps.size() < 4) {
                        snaps.put(db.snapshot(), new TreeMap<>(model));
                    } else {
                        Snapshot s = snaps.keySet().iterator().next();
                        snaps.remove(s).clear();
                        s.close();
                    }
                } else if (r < 950) {
                    for (Map.Entry<Snapshot, TreeMap<byte[], byte[]>> e : snaps.entrySet()) {
                        byte[] k = key();
                        assertArrayEquals(e.getValue().get(k), db.get(k, ReadOptions.at(e.getKey())),
                                where + " snapshot get");
                        if (rnd.nextInt(4) == 0) {
                            checkCursor(db, ReadOptions.at(e.getKey()), e.getValue(), where + " snapshot cursor");
                        }
                    }
                } else if (r < 970) {
                    db.flush();
                } else if (r < 980) {
                    byte[] a = rnd.nextBoolean() ? null : key();
                    byte[] b = rnd.nextBoolean() ? null : key();
                    db.compactRange(a, b);
                } else if (r < 990) {
                    for (Snapshot s : snaps.keySet()) {
                        s.close();
                    }
                    snaps.clear();
                    flushes += db.stats().background().flushes();
                    compactions += db.stats().background().compactions();
                    db.close();
                    db = Engine.open(dir, options);
                    assertModel(db, model, where + " after reopen");
                } else {
                    byte[] k = key();
                    byte[] buf = new byte[rnd.nextInt(64)];
                    int len = db.get(k, buf, 0, ReadOptions.defaults());
                    byte[] expect = model.get(k);
                    if (expect == null) {
                        assertEquals(-1, len, where);
                    } else {
                        assertEquals(expect.length, len, where);
                        for (int i = 0; i < Math.min(len, buf.length); i++) {
                            assertEquals(expect[i], buf[i], where);
                        }
                    }
                }
            }
            assertModel(db, model, "seed=" + seed + " at end");
            for (Map.Entry<Snapshot, TreeMap<byte[], byte[]>> e : snaps.entrySet()) {
                checkCursor(db, ReadOptions.at(e.getKey()), e.getValue(), "seed=" + seed + " snapshot at end");
                e.getKey().close();
            }
            EngineStats st = db.stats();
            flushes += st.background().flushes();
            compactions += st.background().compactions();
            assertTrue(flushes > 10 && compactions > 0,
                    "the run must have flushed and compacted: " + flushes + " flushes, " + compactions + " compactions");
        } finally {
            db.close();
        }
    }

    private WriteOptions randomWriteOptions() {
        int r = rnd.nextInt(10);
        return r == 0 ? WriteOptions.sync() : r == 1 ? WriteOptions.noWal() : WriteOptions.defaults();
    }

    private byte[] key() {
        return keyOf(rnd.nextInt(KEY_SPACE));
    }

    private static byte[] keyOf(int k) {
        // Mixed lengths, including keys that are prefixes of others and the empty key.
        if (k == 0) {
            return new byte[0];
        }
        int len = 1 + (k % 7) * 3;
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (k >>> (8 * (i % 2)) ^ i * 31);
        }
        return b;
    }

    private byte[] value() {
        byte[] v = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(2000) : rnd.nextInt(100)];
        rnd.nextBytes(v);
        return v;
    }

    private void checkCursor(Engine db, ReadOptions base, TreeMap<byte[], byte[]> model, String where) {
        if (!ordered) {
            assertNoCursor(db, base, where);
            return;
        }
        byte[] lo = rnd.nextInt(3) == 0 ? null : key();
        byte[] hi = rnd.nextInt(3) == 0 ? null : key();
        if (lo != null && hi != null && Bytes.compare(lo, hi) > 0) {
            byte[] t = lo;
            lo = hi;
            hi = t;
        }
        ReadOptions ro = base.from(lo).to(hi);
        NavigableMap<byte[], byte[]> range = model;
        if (lo != null && hi != null && Bytes.compare(lo, hi) >= 0) {
            range = new TreeMap<>(Bytes.COMPARATOR);
        } else {
            range = lo != null ? range.tailMap(lo, true) : range;
            range = hi != null ? range.headMap(hi, false) : range;
        }
        try (Cursor c = db.cursor(ro)) {
            Map.Entry<byte[], byte[]> expect;
            String how;
            int start = rnd.nextInt(4);
            if (start == 0) {
                c.seekToFirst();
                expect = range.firstEntry();
                how = "seekToFirst";
            } else if (start == 1) {
                c.seekToLast();
                expect = range.lastEntry();
                how = "seekToLast";
            } else {
                byte[] target = key();
                how = (start == 2 ? "seek " : "seekForPrev ") + Bytes.toHex(target);
                if (start == 2) {
                    c.seek(target);
                    expect = range.ceilingEntry(target);
                } else {
                    c.seekForPrev(target);
                    expect = range.floorEntry(target);
                }
            }
            // Straight forward, straight back (the descending map), or turning at random.
            int mode = rnd.nextInt(3);
            int limit = mode < 2 && rnd.nextInt(4) == 0 ? Integer.MAX_VALUE : 50;
            for (int n = 0; expect != null && n < limit; n++) {
                String at = where + " cursor after " + how + " and " + n + " moves";
                assertTrue(c.isValid(), at + ": ended early, expected " + Bytes.toHex(expect.getKey()));
                assertArrayEquals(expect.getKey(), c.key(), at + ": key");
                assertArrayEquals(expect.getValue(), c.value(), at + ": value");
                boolean forward = mode == 0 || mode == 2 && rnd.nextBoolean();
                if (forward) {
                    c.next();
                    expect = range.higherEntry(expect.getKey());
                } else {
                    c.prev();
                    expect = range.lowerEntry(expect.getKey());
                }
            }
            if (expect == null) {
                assertFalse(c.isValid(), where + " cursor after " + how + " has extra entries");
            }
        }
    }

    /** LSM_TRIE: cursor() refuses, saying why. */
    static void assertNoCursor(Engine db, ReadOptions ro, String where) {
        UnsupportedOperationException e = org.junit.jupiter.api.Assertions.assertThrows(
                UnsupportedOperationException.class, () -> db.cursor(ro), where);
        assertTrue(e.getMessage().contains("LSM_TRIE keeps no key order on disk"), where + ": " + e.getMessage());
    }

    private void assertModel(Engine db, TreeMap<byte[], byte[]> model, String where) {
        if (ordered) {
            assertFullyEqual(db, model, where);
            return;
        }
        assertNoCursor(db, ReadOptions.defaults(), where);
        for (int k = 0; k < KEY_SPACE; k++) {
            byte[] key = keyOf(k);
            assertArrayEquals(model.get(key), db.get(key), where + " get " + Bytes.toHex(key));
        }
        assertNull(db.get(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3, 4, 5}), where);
    }

    static void assertFullyEqual(Engine db, TreeMap<byte[], byte[]> model, String where) {
        List<byte[]> keys = new ArrayList<>();
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            Iterator<Map.Entry<byte[], byte[]>> it = model.entrySet().iterator();
            for (c.seekToFirst(); c.isValid(); c.next()) {
                assertTrue(it.hasNext(), where + ": extra key " + Bytes.toHex(c.key()));
                Map.Entry<byte[], byte[]> e = it.next();
                assertArrayEquals(e.getKey(), c.key(), where);
                assertArrayEquals(e.getValue(), c.value(), where);
                keys.add(e.getKey());
            }
            assertFalse(it.hasNext(), where + ": missing keys");
            it = model.descendingMap().entrySet().iterator();
            for (c.seekToLast(); c.isValid(); c.prev()) {
                assertTrue(it.hasNext(), where + ": extra key backward " + Bytes.toHex(c.key()));
                Map.Entry<byte[], byte[]> e = it.next();
                assertArrayEquals(e.getKey(), c.key(), where + " backward");
                assertArrayEquals(e.getValue(), c.value(), where + " backward");
            }
            assertFalse(it.hasNext(), where + ": missing keys backward");
        }
        for (byte[] k : keys) {
            assertArrayEquals(model.get(k), db.get(k), where);
        }
        assertNull(db.get(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3, 4, 5}), where);
    }
}
