package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A cursor or snapshot dropped without close is reported and releases what it pinned. */
class HandleLeakTest {
    @Test
    void unclosedHandlesAreReleasedWhenUnreachable() throws InterruptedException {
        EngineImpl db = EngineImpl.open(Path.of("/db"), EngineConfigs.small(CompactionStyle.LEVELED,
                InMemoryCompaction.NONE).build(), new CrashableFileSystem());
        try {
            db.put("k".getBytes(), "v".getBytes());
            long before = Handles.LEAKS.sum();
            leakCursorAndSnapshot(db);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Handles.LEAKS.sum() < before + 2 && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(20);
            }
            assertTrue(Handles.LEAKS.sum() >= before + 2, "both leaked handles must be reported");
            // The released snapshot no longer holds back compaction.
            assertTrue(db.snapshotCount() == 0, "the leaked snapshot was unregistered");
        } finally {
            db.close();
        }
    }

    private static void leakCursorAndSnapshot(EngineImpl db) {
        Cursor c = db.cursor(ReadOptions.defaults());
        c.seekToFirst();
        db.snapshot();
    }
}
