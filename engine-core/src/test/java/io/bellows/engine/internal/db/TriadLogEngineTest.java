package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.Cursor;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Fault;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TRIAD-LOG through the engine: a flush turns the logs into a CL-table (only the index is written), gets,
 * cursors and snapshots read through it for values of every size, deletes and batches, across a reopen and
 * a crash; L0→L1 compaction merges CL-tables with SSTables; a log is deleted only once its last CL-table is
 * compacted; a crash before the index and its manifest edit are durable replays the log; a flipped byte in
 * a log a CL-table uses is reported as corruption, never read as a value.
 */
class TriadLogEngineTest {
    private static final Path DIR = Path.of("/db");

    /** TRIAD-LOG alone, one MemStore flush per explicit flush, no automatic L0 compaction. */
    private static EngineOptions options(InMemoryCompaction policy) {
        return EngineConfigs.small(CompactionStyle.TRIAD, policy, EngineConfigs.layouts().get(0))
                .memstoreSize(8 << 20).l0Triggers(20, 30, 40)
                .compaction(TriadOptions.builder().mem(false).disk(false).build()).build();
    }

    private static byte[] key(int i) {
        return String.format("key%05d", i).getBytes();
    }

    private static byte[] value(int i, int round, int size) {
        byte[] v = new byte[size];
        for (int j = 0; j < size; j++) {
            v[j] = (byte) ('a' + (i * 7 + j + round) % 26);
        }
        return v;
    }

    private static void settle(EngineImpl db) throws InterruptedException {
        while (!EngineProbe.settled(db)) {
            Thread.sleep(2);
        }
    }

    /** Header kinds of the tables of each level of the current version. */
    private static List<List<Integer>> kinds(EngineImpl db, FileSystem fs) throws IOException {
        List<List<Integer>> out = new ArrayList<>();
        Version v = db.versions().acquireCurrent();
        try {
            for (int level = 0; level < v.numLevels(); level++) {
                List<Integer> k = new ArrayList<>();
                for (FileMeta f : v.files(level)) {
                    k.add(Coding.getShort(fs.readAll(FileNames.table(DIR, f.number)), 8));
                }
                out.add(k);
            }
        } finally {
            v.release();
        }
        return out;
    }

    private static long logFiles(FileSystem fs) throws IOException {
        return fs.list(DIR).stream().filter(n -> n.endsWith(FileNames.LOG_SUFFIX)).count();
    }

    private static void check(EngineImpl db, Map<String, byte[]> model, ReadOptions ro, String what) {
        for (int i = 0; i < 420; i++) {
            byte[] expected = model.get(new String(key(i)));
            byte[] actual = db.get(key(i), ro);
            if (expected == null) {
                assertNull(actual, what + ": key " + i);
            } else {
                assertArrayEquals(expected, actual, what + ": key " + i);
            }
        }
        List<String> keys = new ArrayList<>();
        try (Cursor c = db.cursor(ro)) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                String k = new String(c.key());
                keys.add(k);
                assertArrayEquals(model.get(k), c.value(), what + ": cursor at " + k);
            }
        }
        assertEquals(new ArrayList<>(model.keySet()), keys, what + ": cursor keys");
    }

    /** Small and large values (up to 1.2 MB, across many 32 KiB log blocks), overwrites, deletes and a batch. */
    private static Map<String, byte[]> load(EngineImpl db, int round, Map<String, byte[]> model) {
        for (int i = 0; i < 400; i++) {
            int size = i == 200 ? 1_200_000 : i % 97 == 5 ? 70_000 + i : i % 13 == 0 ? 0 : 20 + i % 50;
            byte[] v = value(i, round, size);
            db.put(key(i), v);
            model.put(new String(key(i)), v);
        }
        for (int i = 0; i < 400; i += 3) {
            byte[] v = value(i, round + 1, 30);
            db.put(key(i), v);
            model.put(new String(key(i)), v);
        }
        for (int i = 1; i < 400; i += 10) {
            db.delete(key(i));
            model.remove(new String(key(i)));
        }
        WriteBatch b = new WriteBatch();
        for (int i = 400; i < 410; i++) {
            b.put(key(i), value(i, round, 40_000));
            model.put(new String(key(i)), value(i, round, 40_000));
        }
        b.delete(key(2));
        model.remove(new String(key(2)));
        db.write(b, WriteOptions.sync());
        return model;
    }

    @ParameterizedTest
    @EnumSource(InMemoryCompaction.class)
    void readsGoThroughTheClTableAcrossReopenAndCrash(InMemoryCompaction policy) throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(policy), fs);
        Map<String, byte[]> model = new TreeMap<>();
        load(db, 0, model);
        Map<String, byte[]> before = new TreeMap<>(model);
        Snapshot snap = db.snapshot();
        load(db, 1, model);
        long user = db.stats().io().userBytesWritten();
        db.flush();
        settle(db);
        List<List<Integer>> kinds = kinds(db, fs);
        assertEquals(List.of(FileHeader.KIND_CLTABLE), kinds.get(0), kinds.toString());
        long flushed = db.stats().io().flushBytesWritten();
        assertTrue(flushed * 20 < user, "only the index is written: " + flushed + " of " + user);
        check(db, model, ReadOptions.defaults(), policy + " through the CL-table");
        check(db, before, ReadOptions.at(snap), policy + " snapshot through the CL-table");
        snap.close();
        db.close();

        db = EngineImpl.open(DIR, options(policy), fs);
        check(db, model, ReadOptions.defaults(), policy + " after reopen");
        db.close();

        fs = fs.crash();
        db = EngineImpl.open(DIR, options(policy), fs);
        try {
            assertEquals(0, db.stats().recovery().recordsReplayed(), "the CL-table's log is not replayed");
            check(db, model, ReadOptions.defaults(), policy + " after a crash");
        } finally {
            db.close();
        }
    }

    @Test
    void compactionMergesClTablesWithSsTablesAndDeletesTheLogsAfterTheLastOne() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        try {
            Map<String, byte[]> model = new TreeMap<>();
            load(db, 0, model);
            db.flush();
            db.compactRange(null, null);
            settle(db);
            List<List<Integer>> kinds = kinds(db, fs);
            assertTrue(kinds.get(0).isEmpty(), kinds.toString());
            List<Integer> below = kinds.stream().skip(1).flatMap(List::stream).toList();
            assertTrue(!below.isEmpty() && below.stream().allMatch(k -> k == FileHeader.KIND_SSTABLE), kinds.toString());
            awaitLogs(fs, 1);

            load(db, 1, model);
            db.flush();
            load(db, 2, model);
            db.flush();
            settle(db);
            kinds = kinds(db, fs);
            assertEquals(List.of(FileHeader.KIND_CLTABLE, FileHeader.KIND_CLTABLE), kinds.get(0), kinds.toString());
            // Each CL-table keeps its log; the current log is the third.
            Thread.sleep(50);
            assertEquals(3, logFiles(fs), fs.list(DIR).toString());
            check(db, model, ReadOptions.defaults(), "two CL-tables over SSTables");

            db.compactRange(null, null);
            settle(db);
            kinds = kinds(db, fs);
            assertTrue(kinds.get(0).isEmpty(), kinds.toString());
            check(db, model, ReadOptions.defaults(), "after merging the CL-tables into L1");
            awaitLogs(fs, 1);
        } finally {
            db.close();
        }
    }

    @Test
    void aLogStaysWhileAnOlderVersionStillHoldsItsClTable() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        try {
            Map<String, byte[]> model = new TreeMap<>();
            load(db, 0, model);
            db.flush();
            settle(db);
            Cursor pinned = db.cursor(ReadOptions.defaults());
            db.compactRange(null, null);
            settle(db);
            Thread.sleep(50);
            assertEquals(2, logFiles(fs), "the cursor's version still reads the CL-table's log");
            List<String> keys = new ArrayList<>();
            for (pinned.seekToFirst(); pinned.isValid(); pinned.next()) {
                keys.add(new String(pinned.key()));
                assertArrayEquals(model.get(new String(pinned.key())), pinned.value());
            }
            assertEquals(new ArrayList<>(model.keySet()), keys);
            pinned.close();
            db.flush();
            awaitLogs(fs, 1);
        } finally {
            db.close();
        }
    }

    /** TRIAD-LOG switched off alone: flushes write SSTables, and CL-tables written before are still read. */
    @Test
    void withLogOffFlushesWriteSsTablesAndOldClTablesStillRead() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        Map<String, byte[]> model = new TreeMap<>();
        load(db, 0, model);
        db.flush();
        settle(db);
        db.close();
        EngineOptions off = EngineConfigs.small(CompactionStyle.TRIAD, InMemoryCompaction.NONE, EngineConfigs.layouts().get(0))
                .memstoreSize(8 << 20).l0Triggers(20, 30, 40)
                .compaction(TriadOptions.builder().mem(false).disk(false).log(false).build()).build();
        db = EngineImpl.open(DIR, off, fs);
        try {
            load(db, 1, model);
            db.flush();
            settle(db);
            assertEquals(List.of(FileHeader.KIND_SSTABLE, FileHeader.KIND_CLTABLE), kinds(db, fs).get(0));
            check(db, model, ReadOptions.defaults(), "log off over an older CL-table");
            db.compactRange(null, null);
            settle(db);
            check(db, model, ReadOptions.defaults(), "log off, compacted");
            awaitLogs(fs, 1);
        } finally {
            db.close();
        }
    }

    /** With TRIAD-MEM on, the keys a flush carries over are not in the CL-table's index, and survive a crash. */
    @Test
    void carriedHotKeysAreLeftOutOfTheIndex() throws Exception {
        EngineOptions o = EngineConfigs.small(CompactionStyle.TRIAD, InMemoryCompaction.NONE, EngineConfigs.layouts().get(0))
                .memstoreSize(8 << 20).l0Triggers(20, 30, 40)
                .compaction(TriadOptions.builder().hotFraction(0.05).disk(false).build()).build();
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, o, fs);
        Map<String, byte[]> model = new TreeMap<>();
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 10; i++) {
                byte[] v = value(i, round, 50);
                db.put(key(i), v);
                model.put(new String(key(i)), v);
            }
        }
        for (int i = 100; i < 400; i++) {
            byte[] v = value(i, 0, 50);
            db.put(key(i), v);
            model.put(new String(key(i)), v);
        }
        db.flush();
        settle(db);
        assertEquals(List.of(FileHeader.KIND_CLTABLE), kinds(db, fs).get(0));
        List<String> indexed = new ArrayList<>();
        Version v = db.versions().acquireCurrent();
        try (InternalIterator it = db.tables().iterator(v.files(0).get(0), false)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                indexed.add(new String(it.key()));
            }
        } finally {
            v.release();
        }
        assertEquals(300, indexed.size(), "the cold keys, one version each");
        for (int i = 0; i < 10; i++) {
            assertFalse(indexed.contains(new String(key(i))), "hot key " + i + " is carried, not indexed");
        }
        db.put(key(420), value(420, 0, 10), WriteOptions.sync());
        model.put(new String(key(420)), value(420, 0, 10));
        CrashableFileSystem image = fs.crash();
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, o, image);
        try {
            for (Map.Entry<String, byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), reopened.get(e.getKey().getBytes()), e.getKey());
            }
        } finally {
            reopened.close();
        }
    }

    private static void awaitLogs(FileSystem fs, int n) throws Exception {
        for (int i = 0; i < 2000 && logFiles(fs) != n; i++) {
            Thread.sleep(5);
        }
        assertEquals(n, logFiles(fs), fs.list(DIR).toString());
    }

    /**
     * A crash while the index cannot be made durable (its sync fails), and one after the index is durable but
     * before the manifest edit that installs it: either way the log is replayed and nothing is lost.
     */
    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"SYNC", "APPEND"})
    void aCrashBeforeTheClTableIsInstalledReplaysTheLog(Op failing) throws Exception {
        CrashableFileSystem disk = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.BASIC), fs);
        Map<String, byte[]> model = new TreeMap<>();
        load(db, 0, model);
        db.put(key(0), value(0, 9, 10), WriteOptions.sync());
        model.put(new String(key(0)), value(0, 9, 10));
        // SYNC fails the index's sync; APPEND fails the manifest record after the index is durable.
        fs.inject(Fault.on(failing).pathMatching(failing == Op.SYNC ? ".*\\.sst" : "MANIFEST-.*").times(1000));
        Thread flusher = new Thread(() -> {
            try {
                db.flush();
            } catch (RuntimeException expected) {
                // the flush keeps failing until the crash
            }
        });
        flusher.setDaemon(true);
        flusher.start();
        for (int i = 0; i < 2000 && fs.injected() < 2; i++) {
            Thread.sleep(5);
        }
        assertTrue(fs.injected() >= 2, "the flush tried and failed");
        CrashableFileSystem image = disk.crash();
        fs.clear();
        try {
            db.close();
        } catch (RuntimeException ignored) {
            // the failed flush may be reported by close; the image was taken before
        }
        EngineImpl reopened = EngineImpl.open(DIR, options(InMemoryCompaction.BASIC), image);
        try {
            assertTrue(reopened.stats().recovery().recordsReplayed() > 0, "the log is replayed");
            check(reopened, model, ReadOptions.defaults(), failing + ": after the crash");
        } finally {
            reopened.close();
        }
    }

    @Test
    void aFlippedByteInALogUsedAsAClTableIsCorruptionNeverAValue() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        byte[] marked = "MARKED-VALUE-0123456789".getBytes();
        Map<String, byte[]> model = new TreeMap<>();
        load(db, 0, model);
        db.put(key(415), marked, WriteOptions.sync());
        model.put(new String(key(415)), marked);
        db.flush();
        settle(db);
        db.close();
        Path log = null;
        for (String name : fs.list(DIR)) {
            if (name.endsWith(FileNames.LOG_SUFFIX)) {
                byte[] data = fs.readAll(DIR.resolve(name));
                if (indexOf(data, marked) >= 0) {
                    log = DIR.resolve(name);
                }
            }
        }
        assertTrue(log != null, "the flushed log is kept: " + fs.list(DIR));
        byte[] data = fs.readAll(log);
        data[indexOf(data, marked) + 7] ^= 0x01;
        fs.overwrite(log, data);

        EngineImpl reopened = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        try {
            assertThrows(CorruptionException.class, () -> reopened.get(key(415)));
            assertThrows(CorruptionException.class, () -> {
                try (Cursor c = reopened.cursor(ReadOptions.defaults())) {
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        c.value();
                    }
                }
            });
            assertArrayEquals(model.get(new String(key(3))), reopened.get(key(3)), "other records read as before");
        } finally {
            reopened.close();
        }
    }

    /**
     * TRIAD's open reads its L0 tables (a CL-table names the logs it needs), so a damaged CL-table fails
     * the open with the file named, as RocksDB's open fails on a damaged table it opens, instead of
     * opening a store that would lose the logs' records; the refused open changes no file, and the store
     * opens as before once the table is repaired.
     */
    @Test
    void aDamagedClTableRefusesTheOpenAndChangesNothing() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        Map<String, byte[]> model = load(db, 0, new TreeMap<>());
        db.flush();
        settle(db);
        assertEquals(List.of(FileHeader.KIND_CLTABLE), kinds(db, fs).get(0));
        Path table = FileNames.table(DIR, db.versions().current().files(0).get(0).number);
        db.close();

        Map<String, byte[]> files = new TreeMap<>();
        for (String name : fs.list(DIR)) {
            files.put(name, fs.readAll(DIR.resolve(name)));
        }
        byte[] good = files.get(table.getFileName().toString());
        byte[] bad = good.clone();
        bad[bad.length - 9] ^= 0x40;
        fs.overwrite(table, bad);
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs).close());
        assertEquals(table, e.file(), e.getMessage());
        files.put(table.getFileName().toString(), bad);
        assertEquals(files.keySet(), new TreeMap<>(listed(fs)).keySet(), "the refused open made or removed no file");
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            assertArrayEquals(f.getValue(), fs.readAll(DIR.resolve(f.getKey())), f.getKey() + " changed");
        }

        fs.overwrite(table, good);
        db = EngineImpl.open(DIR, options(InMemoryCompaction.NONE), fs);
        try {
            check(db, model, ReadOptions.defaults(), "repaired");
        } finally {
            db.close();
        }
    }

    private static Map<String, Boolean> listed(FileSystem fs) throws IOException {
        Map<String, Boolean> out = new TreeMap<>();
        for (String name : fs.list(DIR)) {
            out.put(name, true);
        }
        return out;
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
