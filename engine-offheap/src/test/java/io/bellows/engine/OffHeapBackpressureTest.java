package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OFF_HEAP pool is bounded: when cursors pin most of it, write groups wait before they are logged
 * (counted as stalls) while a flush returns memory, flush only MemStores worth a table rather than one
 * tiny table per group, and wait for the readers when nothing else can free memory. None fails or is
 * lost.
 */
class OffHeapBackpressureTest {
    private static final int VALUE = 1000;
    private static final long MEMSTORE = 256 << 10;

    @TempDir
    Path dir;

    @Test
    void writesUnderPinnedMemoryStallFlushInWholeTablesAndLoseNothing() throws Exception {
        try (Engine db = Engine.open(dir, options())) {
            List<Cursor> pins = pin(db, 3);
            int n = 3 * 240;
            long stallsBefore = db.stats().background().stalls();
            long flushesBefore = db.stats().background().flushes();
            // About as much as the whole pool, while three quarters of it stay pinned.
            for (int i = n; i < n + 960; i++) {
                db.put(key(i), value(i));
            }
            n += 960;
            long flushes = db.stats().background().flushes() - flushesBefore;
            assertTrue(db.stats().background().stalls() > stallsBefore,
                    "waiting for a flush to return memory is a stall");
            assertTrue(flushes <= 960L * VALUE / (MEMSTORE / 8) + 2, flushes + " flushes: tables should hold at"
                    + " least an eighth of a MemStore, not a group each: " + db.stats());
            close(pins);
            assertAll(db, n);
        }
    }

    @Test
    void writesWaitForReadersWhenNothingElseFreesMemory() throws Exception {
        try (Engine db = Engine.open(dir, options())) {
            List<Cursor> pins = pin(db, 3);
            int n = 3 * 240;
            // Fill what is left, then pin that too: no flush can free anything now.
            while (db.stats().memstore().chunkPoolOffHeapBytes() + 2 * (64 << 10) < (1 << 20)
                    || db.stats().memstore().offHeapBytes() < MEMSTORE / 8) {
                db.put(key(n), value(n));
                n++;
            }
            pins.addAll(pin(db, 0));
            db.flush();
            int first = n;
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = first; i < first + 100; i++) {
                    db.put(key(i), value(i));
                }
            });
            Thread.sleep(300);
            assertFalse(writes.isDone(), "writes wait while readers pin the pool: " + db.stats());
            close(pins);
            writes.get(30, TimeUnit.SECONDS);
            assertAll(db, n + 100);
        }
    }

    /**
     * A write larger than the whole pool can never fit: it is refused at once, naming the limit, instead
     * of waiting a minute for memory that cannot come (issue 21). The engine goes on taking writes.
     */
    @Test
    void aWriteLargerThanTheWholeLimitIsRefusedAtOnce() {
        try (Engine db = Engine.open(dir, options())) {
            byte[] huge = new byte[2 << 20];
            MemoryLimitException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> assertThrows(MemoryLimitException.class, () -> db.put(key(0), huge)));
            assertTrue(e.getMessage().contains("never fit") && e.getMessage().contains("offHeapLimit")
                    && e.getMessage().contains(String.valueOf(1 << 20)), e.getMessage());
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 3; i++) {
                batch.put(key(i), new byte[600 << 10]);
            }
            assertThrows(MemoryLimitException.class, () -> db.write(batch, WriteOptions.async()));
            db.put(key(1), value(1));
            assertArrayEquals(value(1), db.get(key(1)));
            assertEquals(null, db.get(key(0)));
        }
    }

    private static EngineOptions options() {
        return EngineOptions.builder()
                .memoryLayout(MemoryLayout.OFF_HEAP)
                .memstoreSize(MEMSTORE)
                .offHeapLimit(1 << 20)
                .build();
    }

    /**
     * {@code rounds} times: about a MemStore of writes, a cursor pinning it, a flush. Then a last cursor
     * (pinning whatever the MemStore holds now). The flushed MemStores' chunks cannot go back while
     * their cursors may read them.
     */
    private static List<Cursor> pin(Engine db, int rounds) {
        List<Cursor> pins = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < 240; i++) {
                int k = round * 240 + i;
                db.put(key(k), value(k));
            }
            pins.add(open(db));
            db.flush();
        }
        if (rounds == 0) {
            pins.add(open(db));
        }
        return pins;
    }

    private static Cursor open(Engine db) {
        Cursor c = db.cursor(ReadOptions.defaults());
        c.seekToFirst();
        return c;
    }

    private static void close(List<Cursor> pins) {
        for (Cursor c : pins) {
            c.close();
        }
    }

    private static void assertAll(Engine db, int n) {
        for (int i = 0; i < n; i++) {
            assertArrayEquals(value(i), db.get(key(i)), "key " + i);
        }
        int count = 0;
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                count++;
            }
        }
        assertEquals(n, count);
    }

    private static byte[] key(int i) {
        return String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[VALUE];
        Arrays.fill(v, (byte) i);
        return v;
    }
}
