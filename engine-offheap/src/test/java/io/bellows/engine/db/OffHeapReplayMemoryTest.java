package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Recovery replays logs into a bounded OFF_HEAP MemStore: when the logs hold more than its memory, it
 * flushes recovered data to tables as it goes instead of waiting for memory nothing will return. The
 * logs here were written by an ON_HEAP process whose deletes of the empty key hold no data bytes, so
 * its MemStore never became due for a flush.
 */
class OffHeapReplayMemoryTest {
    private static final Path DIR = Path.of("/db");
    private static final byte[] EMPTY = new byte[0];

    @Test
    void replayLargerThanTheOffHeapLimitFlushesAsItGoes() {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions onHeap = EngineOptions.builder().inMemoryCompaction(InMemoryCompaction.NONE).build();
        EngineImpl db = EngineImpl.open(DIR, onHeap, fs);
        db.put("a".getBytes(), "old".getBytes(), WriteOptions.async());
        WriteBatch b = new WriteBatch();
        for (int i = 0; i < 300_000; i++) {
            b.delete(EMPTY);
            if (b.count() == 1000) {
                db.write(b, WriteOptions.async());
                b.clear();
            }
        }
        db.put("a".getBytes(), "new".getBytes(), WriteOptions.sync());
        CrashableFileSystem after = fs.crash();
        db.close();

        EngineOptions offHeap = EngineOptions.builder()
                .inMemoryCompaction(InMemoryCompaction.NONE)
                .memoryLayout(MemoryLayout.OFF_HEAP)
                .memstoreSize(256 << 10)
                .offHeapLimit(1 << 20)
                .build();
        EngineImpl reopened = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> EngineImpl.open(DIR, offHeap, after),
                "1.8 MB of records replayed into a 1 MiB off-heap MemStore");
        try {
            assertArrayEquals("new".getBytes(), reopened.get("a".getBytes()));
            assertNull(reopened.get(EMPTY));
        } finally {
            reopened.close();
        }
    }
}
