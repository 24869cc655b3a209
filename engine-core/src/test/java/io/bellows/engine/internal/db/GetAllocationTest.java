package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.ThreadAllocations;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A get into the caller's buffer (an array, a heap or a direct ByteBuffer) allocates nothing, from the MemStore or from cached table blocks, and a
 * get that returns its value allocates about the value alone (docs/benchmarks.md, "Bytes allocated per
 * get"). Counted with the JVM's per-thread allocation counter, so it measures bytes, not time; the
 * allowance absorbs a rare allocation that is not the get's (a counter cell, a lazily made thread local).
 */
class GetAllocationTest {
    private static final int GETS = 20_000;

    @TempDir
    Path dir;

    @Test
    void getsIntoTheCallersBufferAllocateNothing() throws Exception {
        ThreadAllocations.assumeCounted();
        byte[][] keys = new byte[1000][];
        byte[] value = new byte[100];
        try (Engine db = Engine.open(dir, EngineOptions.builder().compaction(CompactionStyle.LEVELED).build())) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] = String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
                db.put(keys[i], value);
            }
            ReadOptions ro = ReadOptions.defaults();
            byte[] dst = new byte[128];
            ByteBuffer heap = ByteBuffer.allocate(128);
            ByteBuffer direct = ByteBuffer.allocateDirect(128);
            for (String where : new String[] {"memstore", "table"}) {
                if (where.equals("table")) {
                    db.compactRange(null, null);
                }
                for (int i = 0; i < GETS; i++) {
                    db.get(keys[i % keys.length], dst, 0, ro);
                    db.get(keys[i % keys.length], heap.clear(), ro);
                    db.get(keys[i % keys.length], direct.clear(), ro);
                    db.get(keys[i % keys.length]);
                }
                long before = ThreadAllocations.allocated();
                for (int i = 0; i < GETS; i++) {
                    assertEquals(100, db.get(keys[i % keys.length], dst, 0, ro));
                }
                long into = ThreadAllocations.allocated() - before;
                before = ThreadAllocations.allocated();
                for (int i = 0; i < GETS; i++) {
                    assertEquals(100, db.get(keys[i % keys.length], heap.clear(), ro));
                    assertEquals(100, db.get(keys[i % keys.length], direct.clear(), ro));
                }
                long buffers = ThreadAllocations.allocated() - before;
                before = ThreadAllocations.allocated();
                for (int i = 0; i < GETS; i++) {
                    db.get(keys[i % keys.length]);
                }
                long returned = ThreadAllocations.allocated() - before;
                assertTrue(into < 2L * GETS, where + ": " + into + " bytes for " + GETS + " gets into a buffer");
                assertTrue(buffers < 4L * GETS, where + ": " + buffers + " bytes for " + 2 * GETS
                        + " gets into heap and direct ByteBuffers");
                // A 100-byte array is 120 bytes with its header (compressed class pointers).
                assertTrue(returned < 140L * GETS, where + ": " + returned + " bytes for " + GETS + " gets");
            }
        }
    }
}
