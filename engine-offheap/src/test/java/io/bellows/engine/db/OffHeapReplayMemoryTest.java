package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
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

    /**
     * An open that fails after recovery wrote the first part of a split record to a table: that table is in
     * the manifest, so the manifest's last sequence must cover it. Were the log then lost (a damaged disk),
     * the next open must not give those sequences out again: a newer write would sort below the table's.
     */
    @Test
    void aRecoveryStoppedInsideASplitRecordGivesNoSequenceOutAgain() throws Exception {
        CrashableFileSystem mem = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, EngineOptions.builder().build(), mem);
        db.write(largeBatch(), WriteOptions.sync());
        CrashableFileSystem after = mem.crash();
        db.close();

        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(after);
        fs.inject(Fault.on(Op.CREATE).pathMatching("\\d+\\.sst").after(1).times(Integer.MAX_VALUE));
        assertThrows(Exception.class, () -> EngineImpl.open(DIR, smallOffHeap(), fs), "the second table fails");
        for (String name : after.list(DIR)) {
            if (name.endsWith(".log")) {
                after.delete(DIR.resolve(name));
            }
        }
        EngineImpl reopened = EngineImpl.open(DIR, smallOffHeap(), after);
        try {
            byte[] k = "k00000".getBytes();
            assertEquals(300, reopened.get(k).length, "the first part of the record is in a table");
            reopened.put(k, "new".getBytes(), WriteOptions.sync());
            assertArrayEquals("new".getBytes(), reopened.get(k), "a new write sorts above the recovered table");
        } finally {
            reopened.close();
        }
    }

    /** 2,000 puts of 300-byte values, k00000 to k01999, the first byte of each value its number: 0.6 MB. */
    private static WriteBatch largeBatch() {
        WriteBatch b = new WriteBatch();
        byte[] value = new byte[300];
        for (int i = 0; i < 2000; i++) {
            value[0] = (byte) i;
            b.put(String.format("k%05d", i).getBytes(), value.clone());
        }
        return b;
    }

    /** A 256 KiB off-heap MemStore (4 x memstoreSize) of 4 KiB chunks, compacting in memory. */
    private static EngineOptions smallOffHeap() {
        return EngineOptions.builder()
                .inMemoryCompaction(InMemoryCompaction.ADAPTIVE)
                .memoryLayout(MemoryLayout.OFF_HEAP)
                .memstoreSize(64 << 10)
                .mslabChunkSize(4096)
                .build();
    }

    /**
     * One logged write group larger than the whole off-heap limit (a process with a larger MemStore wrote
     * it): recovery splits it between tables instead of waiting for memory its own cells hold. No reader
     * sees the store before recovery ends, and the log stays needed until then, so the split is safe.
     */
    @Test
    void aRecordLargerThanTheOffHeapLimitIsSplitBetweenTables() {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, EngineOptions.builder().build(), fs);
        WriteBatch b = largeBatch();
        byte[] big = new byte[200 << 10];
        big[7] = 7;
        b.put("large".getBytes(), big);
        db.write(b, WriteOptions.sync());
        CrashableFileSystem after = fs.crash();
        db.close();

        EngineImpl reopened = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> EngineImpl.open(DIR, smallOffHeap(), after),
                "a 0.8 MB record replayed into a 256 KiB off-heap MemStore (4 x memstoreSize)");
        try {
            for (int i = 0; i < 2000; i++) {
                byte[] got = reopened.get(String.format("k%05d", i).getBytes());
                assertEquals(300, got.length, "k" + i);
                assertEquals((byte) i, got[0], "k" + i);
            }
            assertArrayEquals(big, reopened.get("large".getBytes()));
        } finally {
            reopened.close();
        }
    }
}
