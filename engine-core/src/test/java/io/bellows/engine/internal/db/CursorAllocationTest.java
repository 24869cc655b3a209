package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.ThreadAllocations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cursor's scan allocates the arrays its {@code key()} and {@code value()} return and nothing else per
 * entry (issue 16 item 5): it reads the merge through views and keeps the entry in arrays of its own.
 * Counted with the JVM's per-thread allocation counter; BASIC keeps its cells in MSLAB chunks, so the
 * MemStore case reads chunk slices, not cell arrays.
 */
class CursorAllocationTest {
    private static final int KEYS = 2000;

    @TempDir
    Path dir;

    @Test
    void aScanAllocatesOnlyWhatItReturns() throws Exception {
        ThreadAllocations.assumeCounted();
        byte[] value = new byte[100];
        EngineOptions o = EngineOptions.builder().compaction(CompactionStyle.LEVELED)
                .inMemoryCompaction(InMemoryCompaction.BASIC).build();
        try (Engine db = Engine.open(dir, o)) {
            for (int i = 0; i < KEYS; i++) {
                db.put(String.format("key%08d", i).getBytes(StandardCharsets.UTF_8), value);
            }
            for (String where : new String[] {"memstore", "table"}) {
                if (where.equals("table")) {
                    db.compactRange(null, null);
                }
                for (int round = 0; round < 5; round++) {
                    scan(db, null);
                }
                long before = ThreadAllocations.allocated();
                long[] sum = new long[1];
                scan(db, sum);
                long bytes = ThreadAllocations.allocated() - before;
                // A key of 11 bytes is a 32-byte array with its header, a 100-byte value 120 bytes: 152 a
                // step. Before the cursor read views, each step also copied both out of the merge (304).
                assertTrue(bytes < 200L * KEYS, where + ": " + bytes + " bytes for a scan of " + KEYS + " entries");
                assertEquals(KEYS, sum[0]);
            }
        }
    }

    private static void scan(Engine db, long[] count) {
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            byte[] expected = new byte[100];
            long n = 0;
            for (c.seekToFirst(); c.isValid(); c.next()) {
                if (c.key().length != 11) {
                    throw new AssertionError("key length " + c.key().length);
                }
                assertArrayEquals(expected, c.value());
                n++;
            }
            if (count != null) {
                count[0] = n;
            }
        }
    }
}
