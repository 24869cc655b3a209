package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public API's contract: results, limits, errors and lifecycle. */
class EngineApiTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes();
    }

    @Test
    void putGetDeleteAndOverwrite() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertNull(db.get(b("a")));
            db.put(b("a"), b("1"));
            db.put(b("b"), b("2"), WriteOptions.sync());
            db.put(b("a"), b("3"), WriteOptions.noWal());
            assertArrayEquals(b("3"), db.get(b("a")));
            db.delete(b("a"));
            assertNull(db.get(b("a")));
            db.delete(b("never-there"));
            db.put(new byte[0], b("empty key"));
            assertArrayEquals(b("empty key"), db.get(new byte[0]));
            db.put(b("z"), new byte[0]);
            assertArrayEquals(new byte[0], db.get(b("z")));
        }
    }

    @Test
    void returnedArraysBelongToTheCaller() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            byte[] v = b("value");
            db.put(b("k"), v);
            v[0] = 'X';
            byte[] got = db.get(b("k"));
            assertArrayEquals(b("value"), got);
            got[0] = 'Y';
            assertArrayEquals(b("value"), db.get(b("k")));
            // From a table: the value lies in a cached block's array, which a get must never hand out.
            db.put(b("j"), b("before"));
            db.put(b("l"), b("after"));
            db.flush();
            for (int round = 0; round < 2; round++) {
                got = db.get(b("k"));
                assertArrayEquals(b("value"), got, "round " + round);
                got[0] = 'Z';
                assertArrayEquals(b("before"), db.get(b("j")));
                assertArrayEquals(b("after"), db.get(b("l")));
            }
            assertArrayEquals(b("value"), db.get(b("k")));
        }
    }

    @Test
    void getIntoCallerBuffer() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.put(b("k"), b("hello"));
            byte[] buf = new byte[8];
            assertEquals(5, db.get(b("k"), buf, 2, ReadOptions.defaults()));
            assertEquals('h', buf[2]);
            byte[] small = new byte[3];
            assertEquals(5, db.get(b("k"), small, 0, ReadOptions.defaults()));
            assertArrayEquals(b("hel"), small);
            assertEquals(-1, db.get(b("absent"), buf, 0, ReadOptions.defaults()));
            db.put(b("a"), b("first"));
            db.flush();
            for (int round = 0; round < 2; round++) {
                byte[] into = new byte[9];
                assertEquals(5, db.get(b("k"), into, 4, ReadOptions.defaults()), "from a table, round " + round);
                assertArrayEquals(b("\0\0\0\0hello"), into);
                assertEquals(5, db.get(b("a"), small, 0, ReadOptions.defaults()));
                assertArrayEquals(b("fir"), small);
            }
        }
    }

    /** As RocksDB's Java get into a ByteBuffer: from the position, limit set after the copy, full length returned. */
    @Test
    void getIntoByteBuffers() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.put(b("k"), b("hello"));
            db.put(b("e"), new byte[0]);
            for (int round = 0; round < 2; round++) {
                for (ByteBuffer buf : new ByteBuffer[] {ByteBuffer.allocate(8), ByteBuffer.allocateDirect(8)}) {
                    String where = (buf.isDirect() ? "direct" : "heap") + ", round " + round;
                    buf.position(2);
                    assertEquals(5, db.get(b("k"), buf, ReadOptions.defaults()), where);
                    assertEquals(2, buf.position(), where);
                    assertEquals(7, buf.limit(), where);
                    byte[] got = new byte[5];
                    buf.get(got);
                    assertArrayEquals(b("hello"), got, where);
                    buf.clear().limit(3);
                    assertEquals(5, db.get(b("k"), buf, ReadOptions.defaults()), "a value longer than the room, " + where);
                    assertEquals(3, buf.limit(), where);
                    assertEquals('l', buf.get(2), where);
                    buf.clear();
                    assertEquals(-1, db.get(b("absent"), buf, ReadOptions.defaults()), where);
                    assertEquals(8, buf.limit(), "an absent key leaves the buffer as it was, " + where);
                    assertEquals(0, db.get(b("e"), buf, ReadOptions.defaults()), where);
                    assertEquals(0, buf.limit(), "an empty value, " + where);
                }
                db.flush();
            }
            assertThrows(IllegalArgumentException.class,
                    () -> db.get(b("k"), ByteBuffer.allocate(8).asReadOnlyBuffer(), ReadOptions.defaults()));
        }
    }

    /** stats() counts a compaction while it runs (RocksDB's num-running-compactions), and none at rest. */
    @Test
    void runningCompactionsAreCounted() throws Exception {
        CountDownLatch begun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EventListener holdFirst = new EventListener() {
            @Override
            public void onCompactionBegin(CompactionInfo info) {
                begun.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (Engine db = Engine.open(dir, EngineOptions.builder().l0Triggers(2, 20, 36).listeners(holdFirst).build())) {
            assertEquals(0, db.stats().background().runningCompactions());
            for (int t = 0; t < 2; t++) {
                db.put(b("k" + t), b("v"));
                db.flush();
            }
            assertTrue(begun.await(30, TimeUnit.SECONDS), "an L0 compaction began");
            assertEquals(1, db.stats().background().runningCompactions());
            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (db.stats().background().runningCompactions() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(0, db.stats().background().runningCompactions());
            assertEquals(1, db.stats().background().compactions());
        } finally {
            release.countDown();
        }
    }

    @Test
    void batchIsAtomicAndOrdered() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            WriteBatch batch = new WriteBatch().put(b("x"), b("1")).put(b("y"), b("2")).delete(b("x")).put(b("y"), b("3"));
            assertEquals(4, batch.count());
            db.write(batch, WriteOptions.sync());
            assertNull(db.get(b("x")));
            assertArrayEquals(b("3"), db.get(b("y")));
            db.write(new WriteBatch());
        }
    }

    @Test
    void snapshotsAndBoundedCursors() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            for (int i = 0; i < 10; i++) {
                db.put(b("k" + i), b("v" + i));
            }
            try (Snapshot s = db.snapshot()) {
                db.put(b("k3"), b("new"));
                db.delete(b("k4"));
                db.flush();
                assertArrayEquals(b("v3"), db.get(b("k3"), ReadOptions.at(s)));
                assertArrayEquals(b("v4"), db.get(b("k4"), ReadOptions.at(s)));
                try (Cursor c = db.cursor(ReadOptions.at(s).from(b("k2")).to(b("k6")))) {
                    StringBuilder sb = new StringBuilder();
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        sb.append(new String(c.key())).append('=').append(new String(c.value())).append(' ');
                    }
                    assertEquals("k2=v2 k3=v3 k4=v4 k5=v5 ", sb.toString());
                }
            }
            try (Cursor c = db.cursor(ReadOptions.defaults().from(b("k2")).to(b("k6")))) {
                StringBuilder sb = new StringBuilder();
                for (c.seek(b("k0")); c.isValid(); c.next()) {
                    sb.append(new String(c.key())).append('=').append(new String(c.value())).append(' ');
                }
                assertEquals("k2=v2 k3=new k5=v5 ", sb.toString());
            }
        }
    }

    @Test
    void limitsAreEnforcedWithClearMessages() {
        try (Engine db = Engine.open(dir, EngineOptions.builder().maxValueLength(1000).build())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.put(new byte[65536], b("v")));
            assertTrue(e.getMessage().contains("65535"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> db.put(b("k"), new byte[1001]));
            assertTrue(e.getMessage().contains("maxValueLength 1000"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> db.get(new byte[65536]));
            assertTrue(e.getMessage().contains("65535"), e.getMessage());
            db.put(new byte[65535], new byte[1000]);
            assertEquals(1000, db.get(new byte[65535]).length);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().memstoreSize(10));
        assertTrue(e.getMessage().contains("memstoreSize must be between"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().l0Triggers(10, 5, 20));
        e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().preloadTables(65));
        assertEquals("preloadTables must be between 0 and 64, got 65", e.getMessage());
    }

    @Test
    void useAfterCloseFails() {
        Engine db = Engine.open(dir, EngineOptions.defaults());
        db.put(b("k"), b("v"));
        Snapshot s = db.snapshot();
        Cursor c = db.cursor(ReadOptions.defaults());
        db.close();
        db.close();
        assertThrows(EngineClosedException.class, () -> db.get(b("k")));
        assertThrows(EngineClosedException.class, () -> db.put(b("k"), b("v")));
        assertThrows(EngineClosedException.class, db::snapshot);
        assertThrows(EngineClosedException.class, db::flush);
        assertThrows(EngineClosedException.class, c::seekToFirst);
        s.close();
        c.close();
    }

    @Test
    void closedSnapshotCannotBeRead() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            Snapshot s = db.snapshot();
            s.close();
            assertThrows(EngineClosedException.class, () -> db.get(b("k"), ReadOptions.at(s)));
        }
    }

    @Test
    void secondOpenOfTheSameDirectoryFails() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            EngineIOException e = assertThrows(EngineIOException.class, () -> Engine.open(dir, EngineOptions.defaults()));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        }
        Engine.open(dir, EngineOptions.defaults()).close();
    }

    @Test
    void createIfMissingAndErrorIfExists() {
        assertThrows(IllegalArgumentException.class,
                () -> Engine.open(dir.resolve("nope"), EngineOptions.builder().createIfMissing(false).build()));
        assertFalse(java.nio.file.Files.exists(dir.resolve("nope")), "a refused open creates nothing");
        Engine.open(dir, EngineOptions.defaults()).close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Engine.open(dir, EngineOptions.builder().errorIfExists(true).build()));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    }

    @Test
    void dataSurvivesReopenWithAndWithoutFlush() {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            db.put(b("flushed"), b("1"));
            db.flush();
            db.put(b("logged"), b("2"));
            db.put(b("unlogged"), b("3"), WriteOptions.noWal());
        }
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            assertArrayEquals(b("1"), db.get(b("flushed")));
            assertArrayEquals(b("2"), db.get(b("logged")));
            assertArrayEquals(b("3"), db.get(b("unlogged")));
        }
    }

    @Test
    void statsAndMetricsReportWork() {
        try (Engine db = Engine.open(dir, EngineOptions.builder().memstoreSize(64 << 10).build())) {
            for (int i = 0; i < 5000; i++) {
                db.put(String.format("key%08d", i).getBytes(), new byte[100]);
            }
            db.flush();
            for (int i = 0; i < 100; i++) {
                db.get(String.format("key%08d", i * 7).getBytes());
            }
            EngineStats st = db.stats();
            assertEquals(5000L * (11 + 100), st.io().userBytesWritten());
            assertTrue(st.io().walBytesWritten() > st.io().userBytesWritten());
            assertTrue(st.io().flushBytesWritten() > 0);
            assertTrue(st.background().flushes() >= 5, st.toString());
            assertTrue(st.io().writeAmplification() >= 1.0);
            assertEquals(100, st.reads().gets());
            assertTrue(st.reads().tablesProbedPerGet() >= 1.0, st.toString());
            assertTrue(st.levels().liveTableBytes() > 0);
            assertFalse(st.io().tableIoMode().isEmpty());
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            db.metrics("test").bindTo(registry);
            assertEquals(100, registry.get("bellows.gets").functionCounter().count());
            assertTrue(registry.get("bellows.bytes.written").tag("cause", "flush").functionCounter().count() > 0);
            assertTrue(registry.get("bellows.write.amplification").gauge().value() >= 1.0);
            for (String cause : new String[] {"delay", "stop", "flush", "memory"}) {
                assertTrue(registry.get("bellows.stall.cause.time").tag("cause", cause).functionCounter().count() >= 0);
            }
            // Background compaction may change the levels between two readings: compare a pair that agrees.
            EngineStats now = db.stats();
            double levelBytes = -1;
            for (int attempt = 0; attempt < 100 && levelBytes != now.levels().liveTableBytes(); attempt++) {
                now = db.stats();
                levelBytes = 0;
                for (int level = 0; level < now.levels().count(); level++) {
                    levelBytes += registry.get("bellows.level.bytes").tag("level", Integer.toString(level)).gauge().value();
                }
            }
            assertEquals(now.levels().liveTableBytes(), levelBytes);
            assertEquals(now.levels().count(), registry.find("bellows.level.tables").gauges().size());
            assertTrue(registry.get("bellows.compaction.pending.bytes").gauge().value() >= 0);
            // Calls are timed once metrics are bound, each op on its own timer.
            db.get(b("k1"));
            db.get(b("k2"));
            db.put(b("k1"), b("v"));
            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                c.seekToFirst();
            }
            assertEquals(2, registry.get("bellows.op.latency").tag("op", "get").timer().count());
            assertEquals(1, registry.get("bellows.op.latency").tag("op", "put").timer().count());
            assertEquals(1, registry.get("bellows.op.latency").tag("op", "cursor").timer().count());
            assertEquals(0, registry.get("bellows.op.latency").tag("op", "write").timer().count());
            assertTrue(registry.get("bellows.op.latency").tag("op", "get").timer().totalTime(TimeUnit.NANOSECONDS) > 0);
        }
    }

    @Test
    void largeValuesSurviveWalReplayFlushAndCompaction() {
        byte[] big = new byte[12 << 20];
        new java.util.Random(7).nextBytes(big);
        EngineOptions o = EngineOptions.builder().maxValueLength(16 << 20).build();
        try (Engine db = Engine.open(dir, o)) {
            db.put(b("big"), big, WriteOptions.sync());
            db.put(b("small"), b("s"));
        }
        try (Engine db = Engine.open(dir, o)) {
            assertArrayEquals(big, db.get(b("big")), "after WAL replay");
            db.put(b("big2"), big);
            db.compactRange(null, null);
            assertArrayEquals(big, db.get(b("big")), "after compaction");
            assertArrayEquals(big, db.get(b("big2")));
            assertArrayEquals(b("s"), db.get(b("small")));
        }
    }

    @Test
    void writersStallInsteadOfFailingWhenL0IsOverItsLimits() {
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE)
                .l0Triggers(1, 2, 3).backgroundThreads(2).build();
        try (Engine db = Engine.open(dir, o)) {
            byte[] value = new byte[200];
            for (int i = 0; i < 20_000; i++) {
                db.put(String.format("key%08d", (i * 7919) % 20_000).getBytes(), value);
            }
            EngineStats st = db.stats();
            assertTrue(st.background().stalls() > 0, "writers must have been slowed or stopped: " + st);
            assertTrue(st.background().stallNanos() > 0, st.toString());
            assertArrayEquals(value, db.get(String.format("key%08d", 12345).getBytes()));
        }
    }

    @Test
    void compactRangePushesDataDownAndDropsGarbage() {
        EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).build();
        try (Engine db = Engine.open(dir, o)) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 2000; i++) {
                    db.put(String.format("key%06d", i).getBytes(), new byte[50]);
                }
            }
            for (int i = 0; i < 2000; i += 2) {
                db.delete(String.format("key%06d", i).getBytes());
            }
            db.compactRange(null, null);
            EngineStats st = db.stats();
            assertEquals(0, st.levels().get(0).tables(), st.toString());
            assertNull(db.get(b("key000000")));
            assertArrayEquals(new byte[50], db.get(b("key000001")));
            // 1000 live keys of ~59 bytes: with garbage dropped the tables hold little more than that.
            assertTrue(st.levels().liveTableBytes() < 1000 * 59 * 2, st.toString());
        }
    }
}
