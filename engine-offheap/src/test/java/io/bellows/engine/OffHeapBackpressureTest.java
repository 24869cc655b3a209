package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OFF_HEAP pool is bounded: when cursors pin all of it, writes wait before they are logged
 * (backpressure, counted as stalls) and go on once the memory comes back; none fails or is lost.
 */
class OffHeapBackpressureTest {
    private static final int VALUE = 1000;

    @TempDir
    Path dir;

    @Test
    void writesWaitForMemoryPinnedByCursorsThenProceed() throws Exception {
        EngineOptions options = EngineOptions.builder()
                .memoryLayout(MemoryLayout.OFF_HEAP)
                .memstoreSize(256 << 10)
                .offHeapLimit(1 << 20)
                .build();
        try (Engine db = Engine.open(dir, options)) {
            List<Cursor> pins = new ArrayList<>();
            int n = 0;
            // Each round fills about a quarter of the pool, pins it with a cursor, and flushes: the
            // flushed MemStore's chunks cannot go back while the cursor may read them.
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 240; i++) {
                    db.put(key(n), value(n));
                    n++;
                }
                Cursor c = db.cursor(ReadOptions.defaults());
                c.seekToFirst();
                pins.add(c);
                db.flush();
            }
            long stallsBefore = db.stats().stalls();
            int first = n;
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = first; i < first + 240; i++) {
                    db.put(key(i), value(i));
                }
            });
            Thread.sleep(500);
            assertTrue(!writes.isDone(), "writes should wait while cursors pin the whole pool: " + db.stats());
            assertTrue(db.stats().stalls() > stallsBefore, "the wait is counted as a stall");
            for (Cursor c : pins) {
                c.close();
            }
            writes.get(30, TimeUnit.SECONDS);
            n += 240;
            for (int i = 0; i < n; i++) {
                assertArrayEquals(value(i), db.get(key(i)), "key " + i);
            }
            assertEquals(n, count(db));
        }
    }

    private static int count(Engine db) {
        int n = 0;
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                n++;
            }
        }
        return n;
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
