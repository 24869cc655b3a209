package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB side of the comparison, on a real RocksDB with a MemStore small enough to flush. */
class RocksDbEngineTest {
    @TempDir
    Path tmp;

    @Test
    void operationsAndStatsMatchBellowsSemantics() {
        EngineOptions o = EngineOptions.builder().memstoreSize(64 << 10).build();
        KeyCodec keys = new KeyCodec(16);
        byte[] value = new byte[100];
        try (BenchEngine db = RocksDbEngine.open(tmp, o, Durability.ASYNC)) {
            for (int i = 0; i < 3000; i++) {
                value[0] = (byte) i;
                db.put(keys.encode(i), value.clone());
            }
            BenchEngine.Batch batch = db.newBatch();
            batch.put(keys.encode(5000), value);
            batch.delete(keys.encode(7));
            assertEquals(2, batch.count());
            batch.commit();
            assertEquals(0, batch.count());

            byte[] dst = new byte[100];
            assertEquals(100, db.get(keys.encode(3), dst));
            assertEquals(3, dst[0]);
            assertEquals(-1, db.get(keys.encode(7), dst));
            assertEquals(-1, db.get(keys.encode(4000), dst));

            try (BenchEngine.Scan s = db.scan()) {
                s.seek(keys.encode(6));
                assertArrayEquals(keys.encode(6), s.key());
                s.next();
                assertArrayEquals(keys.encode(8), s.key(), "the deleted key is skipped");
                s.seekToFirst();
                assertEquals(0, keys.decode(s.key()));
                assertTrue(s.isValid());
            }

            EngineStats stats = db.stats();
            assertEquals(3000L * 116 + 116 + 16, stats.io().userBytesWritten(),
                    "key and value bytes as Bellows counts them");
            assertTrue(stats.io().flushBytesWritten() > 0, "64 KiB write buffers flushed: " + stats);
            assertTrue(stats.background().flushes() > 0);
            assertTrue(stats.io().walBytesWritten() > stats.io().userBytesWritten());
            assertTrue(stats.levels().liveTableBytes() > 0);
            assertEquals("direct", stats.io().tableIoMode());
            assertTrue(stats.reads().gets() >= 3);
        }
    }

    @Test
    void walDisabledForDurabilityNone() {
        try (BenchEngine db = RocksDbEngine.open(tmp, EngineOptions.defaults(), Durability.NONE)) {
            db.put(new KeyCodec(16).encode(1), new byte[10]);
            assertEquals(0, db.stats().io().walBytesWritten());
            assertFalse(db.get(new KeyCodec(16).encode(1), new byte[10]) < 0);
        }
    }
}
