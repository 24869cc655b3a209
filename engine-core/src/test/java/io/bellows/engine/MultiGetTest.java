package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** multiGet answers what a loop of gets at one sequence answers, and reads each table block once. */
class MultiGetTest {
    private static final int KEYS = 3000;

    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    @ParameterizedTest
    @EnumSource(CompactionStyle.class)
    void answersAsGetsDoAtOneSequence(CompactionStyle style) {
        long seed = TestSeeds.seed("MultiGetTest[" + style + "]");
        Random rnd = new Random(seed);
        TreeMap<Integer, byte[]> model = new TreeMap<>();
        try (Engine db = Engine.open(dir, EngineConfigs.small(style, InMemoryCompaction.BASIC).build())) {
            for (int i = 0; i < 20_000; i++) {
                int k = rnd.nextInt(KEYS);
                if (rnd.nextInt(8) == 0) {
                    db.delete(key(k));
                    model.remove(k);
                } else {
                    byte[] v = new byte[rnd.nextInt(64)];
                    rnd.nextBytes(v);
                    db.put(key(k), v);
                    model.put(k, v);
                }
            }
            List<byte[]> keys = new ArrayList<>();
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                int k = rnd.nextInt(KEYS + 100);
                keys.add(key(k));
                ids.add(k);
            }
            keys.add(keys.get(0));
            ids.add(ids.get(0));
            Snapshot snap = db.snapshot();
            TreeMap<Integer, byte[]> before = new TreeMap<>(model);
            for (int i = 0; i < KEYS; i += 3) {
                db.put(key(i), "after".getBytes());
            }
            List<byte[]> now = db.multiGet(keys);
            List<byte[]> then = db.multiGet(keys, ReadOptions.at(snap));
            assertEquals(keys.size(), now.size());
            for (int i = 0; i < keys.size(); i++) {
                int k = ids.get(i);
                byte[] expectNow = k < KEYS && k % 3 == 0 ? "after".getBytes() : model.get(k);
                assertArrayEquals(expectNow, now.get(i), "seed=" + seed + " key " + k);
                assertArrayEquals(db.get(keys.get(i)), now.get(i), "seed=" + seed + " key " + k);
                assertArrayEquals(before.get(k), then.get(i), "seed=" + seed + " snapshot, key " + k);
            }
            snap.close();
            assertTrue(db.multiGet(List.of()).isEmpty());
        }
    }

    @Test
    void readsEachBlockOnceWhereGetsReadItPerKey() {
        EngineOptions o = EngineOptions.builder().compaction(CompactionStyle.LEVELED).blockSize(4096)
                .blockCacheSize(0).build();
        try (Engine db = Engine.open(dir, o)) {
            for (int i = 0; i < 20_000; i++) {
                db.put(key(i), new byte[100]);
            }
            db.compactRange(null, null);
            List<byte[]> keys = new ArrayList<>();
            for (int i = 5000; i < 5400; i += 2) {
                keys.add(key(i));
            }
            List<byte[]> reversed = new ArrayList<>(keys);
            Collections.reverse(reversed);
            long start = db.stats().reads().blockReads();
            for (byte[] k : reversed) {
                assertEquals(100, db.get(k).length);
            }
            long byGets = db.stats().reads().blockReads() - start;
            start = db.stats().reads().blockReads();
            List<byte[]> values = db.multiGet(reversed);
            long byMultiGet = db.stats().reads().blockReads() - start;
            for (byte[] v : values) {
                assertEquals(100, v.length);
            }
            // 200 keys of ~120 bytes each over 400 keys' span: about 12 blocks of 4 KiB.
            assertTrue(byGets >= keys.size(), "gets read " + byGets + " blocks");
            assertTrue(byMultiGet <= 16, "multiGet read " + byMultiGet + " blocks");
        }
    }

    @Test
    void refusesBadKeysAndANullList() {
        try (Engine db = Engine.open(dir, EngineOptions.builder().build())) {
            assertThrows(NullPointerException.class, () -> db.multiGet(null));
            List<byte[]> withNull = new ArrayList<>();
            withNull.add(null);
            assertThrows(NullPointerException.class, () -> db.multiGet(withNull));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.multiGet(List.of(new byte[Engine.MAX_KEY_LENGTH + 1])));
            assertTrue(e.getMessage().contains("exceeds the limit of " + Engine.MAX_KEY_LENGTH), e.getMessage());
            assertNull(db.multiGet(List.of("absent".getBytes())).get(0));
        }
    }
}
