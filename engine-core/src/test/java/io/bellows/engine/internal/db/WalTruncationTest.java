package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Accordion's WAL truncation: logs whose records are all below the oldest sequence the MemStore holds
 * are released before any disk flush, and a crash then recovers exactly the acknowledged state from the
 * logs left, tombstones included, on a file system that keeps only synced data.
 */
class WalTruncationTest {
    private static final Path DIR = Path.of("/db");

    private static EngineOptions options(InMemoryCompaction policy) {
        // A MemStore far larger than the live data: versions are dropped in memory, nothing is flushed. It
        // is also larger than everything the test writes (about 400 KB), so a loaded machine on which
        // in-memory compaction lags still flushes nothing (at 256 KiB it once did).
        return EngineConfigs.small(CompactionStyle.LEVELED, policy).memstoreSize(1 << 20).build();
    }

    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"EAGER", "ADAPTIVE"})
    void droppedVersionsReleaseLogsAndRecoveryRebuildsTheState(InMemoryCompaction policy) throws IOException {
        long seed = TestSeeds.seed("WalTruncationTest[" + policy + "]");
        Random rnd = new Random(seed);
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(policy), fs);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.COMPARATOR);
        // Every key starts in a table, so a lost tombstone would resurrect it.
        for (int k = 0; k < 60; k++) {
            byte[] v = value(rnd);
            db.put(key(k), v);
            model.put(key(k), v);
        }
        db.flush();
        long flushes = db.stats().background().flushes();
        long firstLog = db.versions().logNumber();
        for (int i = 0; i < 8000; i++) {
            byte[] k = key(rnd.nextInt(60));
            if (rnd.nextInt(8) == 0) {
                db.delete(k, WriteOptions.async());
                model.remove(k);
            } else {
                byte[] v = value(rnd);
                db.put(k, v, WriteOptions.async());
                model.put(k, v);
            }
        }
        db.put(key(0), model.getOrDefault(key(0), value(rnd)), WriteOptions.sync());
        model.putIfAbsent(key(0), db.get(key(0)));
        awaitRelease(db);
        assertEquals(flushes, db.stats().background().flushes(), "seed=" + seed + ": no disk flush happened");
        assertTrue(db.versions().logNumber() > firstLog, "seed=" + seed + ": logs were released before a flush");
        // The released logs are deleted by a sweep on the scheduler, after the release is counted.
        long logsLeft = logs(fs);
        for (int i = 0; i < 500 && logsLeft >= 8; i++) {
            sleep();
            logsLeft = logs(fs);
        }
        assertTrue(logsLeft < 8, "seed=" + seed + ": " + logsLeft + " logs left");

        CrashableFileSystem crashed = fs.crash();
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options(policy), crashed);
        try {
            assertEquals(model.size(), contents(reopened).size(), "seed=" + seed);
            for (Map.Entry<byte[], byte[]> e : contents(reopened).entrySet()) {
                assertArrayEquals(model.get(e.getKey()), e.getValue(), "seed=" + seed);
            }
            for (int k = 0; k < 60; k++) {
                assertArrayEquals(model.get(key(k)), reopened.get(key(k)), "seed=" + seed + " key " + k);
            }
        } finally {
            reopened.close();
        }
    }

    /** A version a snapshot can read stays in memory, so its log is kept. */
    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"EAGER"})
    void aLiveSnapshotKeepsItsVersionsAndTheirLogs(InMemoryCompaction policy) {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(policy), fs);
        try {
            db.put(key(1), "old".getBytes(), WriteOptions.sync());
            long firstLog = db.versions().logNumber();
            Snapshot s = db.snapshot();
            Random rnd = new Random(1);
            for (int i = 0; i < 6000; i++) {
                db.put(key(1 + rnd.nextInt(30)), value(rnd), WriteOptions.async());
            }
            assertArrayEquals("old".getBytes(), db.get(key(1), ReadOptions.at(s)));
            assertEquals(firstLog, db.versions().logNumber(), "the snapshot's version pins its log");
            assertTrue(db.memstoreCounters().compactions.sum() > 0);
            s.close();
        } finally {
            db.close();
        }
    }

    /**
     * An unlogged (Durability.NONE) write may be the only version shadowing a dropped logged one; a
     * crash would lose both. Until the next disk flush no log is released.
     */
    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"EAGER"})
    void unloggedWritesStopTruncationUntilTheNextFlush(InMemoryCompaction policy) {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(policy), fs);
        try {
            db.put(key(1), "logged".getBytes(), WriteOptions.sync());
            db.put(key(1), "unlogged".getBytes(), WriteOptions.noWal());
            long firstLog = db.versions().logNumber();
            Random rnd = new Random(2);
            for (int i = 0; i < 6000; i++) {
                db.put(key(2 + rnd.nextInt(30)), value(rnd), WriteOptions.async());
            }
            db.put(key(2), "last".getBytes(), WriteOptions.sync());
            assertTrue(db.memstoreCounters().compactions.sum() > 0);
            assertEquals(firstLog, db.versions().logNumber());
            CrashableFileSystem crashed = fs.crash();
            db.close();
            db = EngineImpl.open(DIR, options(policy), crashed);
            byte[] got = db.get(key(1));
            assertTrue(got != null, "the logged version survives the unlogged one's loss");
            assertNull(db.get(key(99)));
        } finally {
            db.close();
        }
    }

    /**
     * A SYNC write whose only newer version is an ASYNC write not yet forced: dropping the older
     * version in memory and releasing its log must not rest on the newer one's record, which a crash
     * may still take. Before the release the current log is forced, so the key recovers to one of its
     * acknowledged values (and never vanishes while later writes to other keys survive).
     */
    @Test
    void aReleasedLogIsNeverShadowedOnlyByAnUnforcedRecord() {
        // No background force: only rolls (and, with the fix, the release itself) force the log.
        EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.EAGER)
                .memstoreSize(256 << 10).walSyncInterval(java.time.Duration.ofHours(1)).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        try {
            byte[] k = "the-key".getBytes();
            db.put(k, "synced".getBytes(), WriteOptions.sync());
            long keyLog = newestLog(fs);
            Random rnd = new Random(3);
            // Other keys roll past the key's log; their old versions are dropped, the key's stays.
            int i = 0;
            while (newestLog(fs) < keyLog + 2) {
                db.put(key(i++ % 30), value(rnd), WriteOptions.async());
            }
            long current = newestLog(fs);
            db.put(k, "unforced".getBytes(), WriteOptions.async());
            // Enough for in-memory flushes (EAGER compacts each, dropping the key's synced version),
            // too little to roll the log (which would force the new version).
            for (int j = 0; j < 150; j++) {
                db.put(key(j % 30), value(rnd), WriteOptions.async());
            }
            assertEquals(current, newestLog(fs), "the key's new version is still in the current, unforced log");
            for (int w = 0; w < 500 && db.versions().logNumber() <= keyLog; w++) {
                Thread.sleep(10);
            }
            assertTrue(db.versions().logNumber() > keyLog, "the key's log was released");
            CrashableFileSystem crashed = fs.crash();
            db.close();
            db = EngineImpl.open(DIR, options, crashed);
            byte[] got = db.get(k);
            assertTrue(got != null, "a SYNC write vanished: its log was released, its successor lost in the crash");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            db.close();
        }
    }

    private static long newestLog(CrashableFileSystem fs) {
        try {
            return fs.list(DIR).stream().mapToLong(n -> FileNames.number(n, FileNames.LOG_SUFFIX)).max().orElse(-1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void awaitRelease(EngineImpl db) {
        for (int i = 0; i < 500 && db.memstoreCounters().logsReleasedEarly.sum() == 0; i++) {
            sleep();
        }
    }

    private static long logs(CrashableFileSystem fs) throws IOException {
        return fs.list(DIR).stream().filter(n -> FileNames.number(n, FileNames.LOG_SUFFIX) >= 0).count();
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static byte[] key(int k) {
        return String.format("key%04d", k).getBytes();
    }

    private static byte[] value(Random rnd) {
        byte[] v = new byte[20 + rnd.nextInt(40)];
        rnd.nextBytes(v);
        return v;
    }

    private static TreeMap<byte[], byte[]> contents(EngineImpl db) {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Bytes.COMPARATOR);
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                out.put(c.key(), c.value());
            }
        }
        return out;
    }
}
