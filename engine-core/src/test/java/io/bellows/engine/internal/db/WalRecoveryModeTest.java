package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.WalRecoveryMode;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogReader;
import io.bellows.engine.internal.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * WAL damage under each {@link WalRecoveryMode}: a complete record whose checksum fails is corruption,
 * never a torn tail (before the fix a flip in the last record dropped it with a WARN, and deleted keys
 * came back); what recovery drops is counted in {@link EngineStats.Recovery}.
 */
class WalRecoveryModeTest {
    private static final Path DIR = Path.of("/db");
    private static final int KEYS = 200;
    private final EngineOptions base = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE)
            .memstoreSize(1 << 20).build();

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value%06d-%s", i, "v".repeat(40)).getBytes();
    }

    /** One WAL record per key (each a SYNC put of its own), then the last record deletes key 0. */
    private static Path store(CrashableFileSystem fs, EngineOptions options) throws IOException {
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < KEYS; i++) {
            db.put(key(i), value(i), WriteOptions.sync());
        }
        db.delete(key(0), WriteOptions.sync());
        db.close();
        long last = -1;
        for (String name : fs.list(DIR)) {
            last = Math.max(last, FileNames.number(name, FileNames.LOG_SUFFIX));
        }
        return FileNames.log(DIR, last);
    }

    private static List<Long> recordOffsets(byte[] log, Path path) {
        LogReader r = new LogReader(log, path, FileHeader.KIND_WAL);
        List<Long> out = new ArrayList<>();
        while (r.next() != null) {
            out.add(r.lastRecordOffset());
        }
        return out;
    }

    private static void flip(CrashableFileSystem fs, Path log, int record) throws IOException {
        byte[] b = fs.readAll(log);
        long offset = recordOffsets(b, log).get(record);
        b[(int) offset + 7 + BatchCodec.HEADER_LENGTH + 2] ^= 0x20;
        fs.overwrite(log, b);
    }

    @Test
    void flippedLastRecordIsCorruptionUnderEveryMode() throws IOException {
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
            CrashableFileSystem fs = new CrashableFileSystem();
            EngineOptions options = base.toBuilder().walRecoveryMode(mode).build();
            Path log = store(fs, options);
            flip(fs, log, KEYS);
            if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
                CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, options, fs));
                assertEquals(log, e.file());
                assertTrue(e.getMessage().contains("checksum"), e.getMessage());
                continue;
            }
            EngineImpl db = EngineImpl.open(DIR, options, fs);
            try {
                EngineStats.Recovery r = db.stats().recovery();
                assertEquals(1, r.corruptRegions(), mode + ": " + r);
                assertEquals(0, r.tornTailBytes(), mode + ": " + r);
                assertTrue(r.bytesDropped() > 0, mode + ": " + r);
                assertEquals(KEYS, r.recordsReplayed(), mode + ": " + r);
                // The delete was dropped, loudly: key 0 is back, and the stats say why.
                assertArrayEquals(value(0), db.get(key(0)));
            } finally {
                db.close();
            }
        }
    }

    @Test
    void corruptionInTheMiddleStopsPointInTimeRecoveryAndLaterLogsAreDropped() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        Path log = store(fs, base);
        flip(fs, log, 100);
        Path later = writeLaterLog(fs, log);
        EngineImpl db = EngineImpl.open(DIR, base, fs);
        try {
            for (int i = 1; i < 100; i++) {
                assertArrayEquals(value(i), db.get(key(i)), "key " + i);
            }
            for (int i = 100; i < KEYS; i++) {
                assertNull(db.get(key(i)), "key " + i + " comes after the damage");
            }
            assertNull(db.get("later".getBytes()), "a later WAL is not applied without what was dropped");
            EngineStats.Recovery r = db.stats().recovery();
            // Dropped: the 100 readable records after the damaged one, and the later log's one.
            assertEquals(new EngineStats.Recovery(2, 100, 0, 1, 101, r.bytesDropped()), r);
            assertTrue(r.bytesDropped() > 0, r.toString());
            // Both files are kept for inspection under another name; the store no longer needs them.
            assertTrue(fs.exists(FileNames.corruptLog(DIR, number(log))), fs.list(DIR).toString());
            assertTrue(fs.exists(FileNames.corruptLog(DIR, number(later))), fs.list(DIR).toString());
            assertFalse(fs.exists(log));
            // What the engine writes next must not collide with the sequences it dropped.
            db.put(key(150), value(150));
            assertArrayEquals(value(150), db.get(key(150)));
        } finally {
            db.close();
        }
    }

    @Test
    void skipAnyCorruptedRecordsDropsOnlyTheDamagedRecord() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions options = base.toBuilder().walRecoveryMode(WalRecoveryMode.SKIP_ANY_CORRUPTED_RECORDS).build();
        Path log = store(fs, options);
        flip(fs, log, 100);
        writeLaterLog(fs, log);
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        try {
            for (int i = 1; i < KEYS; i++) {
                if (i == 100) {
                    assertNull(db.get(key(i)));
                } else {
                    assertArrayEquals(value(i), db.get(key(i)), "key " + i);
                }
            }
            assertNull(db.get(key(0)));
            assertArrayEquals("after".getBytes(), db.get("later".getBytes()));
            EngineStats.Recovery r = db.stats().recovery();
            assertEquals(1, r.corruptRegions(), r.toString());
            assertEquals(KEYS + 1, r.recordsReplayed(), r.toString());
        } finally {
            db.close();
        }
    }

    @Test
    void tornTailIsCutExceptUnderAbsoluteConsistency() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        Path log = store(fs, base);
        byte[] b = fs.readAll(log);
        long lastRecord = recordOffsets(b, log).get(KEYS);
        fs.overwrite(log, Arrays.copyOf(b, b.length - 3));
        EngineOptions absolute = base.toBuilder().walRecoveryMode(WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
        CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, absolute, fs));
        assertEquals(lastRecord, e.offset());
        assertTrue(e.getMessage().contains("ABSOLUTE_CONSISTENCY"), e.getMessage());
        EngineImpl db = EngineImpl.open(DIR, base, fs);
        try {
            EngineStats.Recovery r = db.stats().recovery();
            assertEquals(b.length - 3 - lastRecord, r.tornTailBytes(), r.toString());
            assertEquals(0, r.corruptRegions(), r.toString());
            assertEquals(KEYS, r.recordsReplayed(), r.toString());
            assertArrayEquals(value(0), db.get(key(0)), "the torn delete never happened");
        } finally {
            db.close();
        }
    }

    @Test
    void damagedHeaderDropsTheFileUnderSkipAndStopsPointInTime() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        Path log = store(fs, base);
        byte[] b = fs.readAll(log);
        b[3] ^= 1;
        fs.overwrite(log, b);
        EngineImpl db = EngineImpl.open(DIR, base, fs);
        try {
            assertNull(db.get(key(5)));
            assertEquals(1, db.stats().recovery().corruptRegions());
            assertEquals(b.length, db.stats().recovery().bytesDropped());
        } finally {
            db.close();
        }
    }

    /** A later WAL file (as a MemStore switch leaves) holding one put with sequences after the first log's. */
    private static Path writeLaterLog(CrashableFileSystem fs, Path log) throws IOException {
        long number = FileNames.number(log.getFileName().toString(), FileNames.LOG_SUFFIX) + 1;
        Path later = FileNames.log(DIR, number);
        try (LogWriter w = new LogWriter(fs.createLog(later), FileHeader.KIND_WAL)) {
            byte[] record = BatchCodec.encode(10_000, List.of(new WriteBatch().put("later".getBytes(), "after".getBytes())));
            w.addRecord(record, 0, record.length);
            w.sync();
        }
        return later;
    }

    private static long number(Path log) {
        return FileNames.number(log.getFileName().toString(), FileNames.LOG_SUFFIX);
    }
}
