package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WalRecoveryMode;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Recovery paths: scheme and version checks, damaged WAL, tables and manifest, abandoned processes. */
class RecoveryTest {
    private static final Path DIR = Path.of("/db");
    private final EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE).build();

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes();
    }

    private static byte[] value(int i) {
        return String.format("value%06d-%s", i, "v".repeat(40)).getBytes();
    }

    @Test
    void anotherSchemeIsAClearError() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(DIR);
        VersionSet vs = new VersionSet(DIR, fs, 5, new io.bellows.engine.internal.compaction.leveled.LeveledScheme(options), () -> {});
        vs.create("FLSM");
        vs.close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineImpl.open(DIR, options, fs));
        assertTrue(e.getMessage().contains("created with compaction scheme FLSM"), e.getMessage());
        assertTrue(e.getMessage().contains("LEVELED"), e.getMessage());
    }

    @Test
    void anotherFormatVersionIsAClearError() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl.open(DIR, options, fs).close();
        byte[] current = fs.readAll(DIR.resolve(FileNames.CURRENT));
        System.arraycopy(FileHeader.encode(FileHeader.KIND_CURRENT, 9), 0, current, 0, FileHeader.LENGTH);
        try (WritableFile f = fs.createLog(DIR.resolve(FileNames.CURRENT))) {
            f.append(current);
            f.sync();
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, options, fs));
        assertTrue(e.getMessage().contains("format version 9 is not supported"), e.getMessage());
        assertTrue(e.getMessage().contains("CURRENT"), e.getMessage());
    }

    @Test
    void damagedManifestIsCorruptionNamingIt() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 2000; i++) {
            db.put(key(i), value(i));
        }
        db.flush();
        db.close();
        Path manifest = null;
        for (String name : fs.list(DIR)) {
            if (name.startsWith(FileNames.MANIFEST_PREFIX)) {
                manifest = DIR.resolve(name);
            }
        }
        byte[] b = fs.readAll(manifest);
        b[FileHeader.LENGTH + 10] ^= 0x01;
        try (WritableFile f = fs.createLog(manifest)) {
            f.append(b);
            f.sync();
        }
        Path damaged = manifest;
        CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, options, fs));
        assertEquals(damaged, e.file());
    }

    @Test
    void aDirectoryOfForeignFilesIsRefused() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(DIR);
        try (WritableFile f = fs.createLog(DIR.resolve(FileNames.CURRENT))) {
            f.append("MANIFEST-000001\n".getBytes());
            f.sync();
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> EngineImpl.open(DIR, options, fs));
        assertTrue(e.getMessage().contains("CURRENT"), e.getMessage());
    }

    @Test
    void fewerLevelsThanTheStoreUsesIsAClearError() {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 3000; i++) {
            db.put(key(i), value(i));
        }
        db.compactRange(null, null);
        db.close();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineImpl.open(DIR, options.toBuilder().numLevels(2).build(), fs));
        assertTrue(e.getMessage().contains("open it with numLevels >="), e.getMessage());
        EngineImpl.open(DIR, options, fs).close();
    }

    @Test
    void abandonedProcessRecoversEverythingLogged() {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        for (int i = 0; i < 3000; i++) {
            db.put(key(i), value(i), i % 100 == 99 ? WriteOptions.sync() : WriteOptions.async());
        }
        db.put(key(5000), value(5000), WriteOptions.sync());
        // The process dies without close: only what was synced survives.
        CrashableFileSystem after = fs.crash();
        db.close();
        EngineImpl reopened = EngineImpl.open(DIR, options, after);
        for (int i = 0; i < 3000; i++) {
            assertArrayEquals(value(i), reopened.get(key(i)), "key " + i);
        }
        assertArrayEquals(value(5000), reopened.get(key(5000)));
        reopened.close();
    }

    @Test
    void walDamageFollowedByValidRecordsIsCorruptionNotSilentLoss() throws IOException {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options.toBuilder().memstoreSize(1 << 20).build(), fs);
        for (int i = 0; i < 200; i++) {
            db.put(key(i), value(i), WriteOptions.sync());
        }
        CrashableFileSystem crashed = fs.crash();
        db.close();
        Path log = null;
        for (String name : crashed.list(DIR)) {
            if (name.endsWith(FileNames.LOG_SUFFIX) && crashed.size(DIR.resolve(name)) > 1000) {
                log = DIR.resolve(name);
            }
        }
        byte[] b = crashed.readAll(log);
        b[b.length / 2] ^= 0x40;
        try (WritableFile f = crashed.createLog(log)) {
            f.append(b);
            f.sync();
        }
        Path damaged = log;
        EngineOptions absolute = options.toBuilder().walRecoveryMode(WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> EngineImpl.open(DIR, absolute, crashed));
        assertEquals(damaged, e.file());
        assertTrue(e.offset() > 0 && e.offset() <= b.length / 2, "offset " + e.offset());
        // The default, POINT_IN_TIME, opens at the last write before the damage and says what it dropped.
        EngineImpl db2 = EngineImpl.open(DIR, options, crashed);
        try {
            assertArrayEquals(value(0), db2.get(key(0)));
            assertNull(db2.get(key(199)));
            assertEquals(1, db2.stats().recovery().corruptRegions());
            assertTrue(db2.stats().recovery().recordsDropped() > 0, db2.stats().recovery().toString());
        } finally {
            db2.close();
        }
    }

    @Test
    void flippedTableBytesNeverYieldWrongValues() throws IOException {
        long seed = TestSeeds.seed("flippedTableBytesNeverYieldWrongValues");
        Random rnd = new Random(seed);
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions o = options.toBuilder().memstoreSize(1 << 20).blockCacheSize(0).build();
        EngineImpl db = EngineImpl.open(DIR, o, fs);
        for (int i = 0; i < 1000; i++) {
            db.put(key(i), value(i));
        }
        db.flush();
        db.close();
        Path table = null;
        for (String name : fs.list(DIR)) {
            if (name.endsWith(FileNames.TABLE_SUFFIX)) {
                table = DIR.resolve(name);
            }
        }
        byte[] original = fs.readAll(table);
        int corruptions = 0;
        for (int trial = 0; trial < 40; trial++) {
            byte[] b = original.clone();
            int pos = rnd.nextInt(b.length);
            b[pos] ^= (byte) (1 << rnd.nextInt(8));
            try (WritableFile f = fs.createTable(table)) {
                f.append(b);
                f.sync();
            }
            EngineImpl reopened = EngineImpl.open(DIR, o, fs);
            try {
                for (int i = 0; i < 1000; i += 7) {
                    try {
                        byte[] v = reopened.get(key(i));
                        assertArrayEquals(value(i), v, "seed=" + seed + " flipped byte " + pos + " gave a wrong value");
                    } catch (CorruptionException e) {
                        assertEquals(table, e.file());
                        corruptions++;
                    }
                }
            } finally {
                reopened.close();
            }
        }
        assertTrue(corruptions > 0, "seed=" + seed + ": some flips must have been detected");
    }

    @Test
    void snapshotReadsSurviveFlushAndCompaction() {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineImpl db = EngineImpl.open(DIR, options, fs);
        List<io.bellows.engine.Snapshot> snaps = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 500; i++) {
                db.put(key(i), (round + ":" + i).getBytes());
            }
            snaps.add(db.snapshot());
        }
        for (int i = 0; i < 500; i += 2) {
            db.delete(key(i));
        }
        db.compactRange(null, null);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 500; i += 13) {
                assertArrayEquals((round + ":" + i).getBytes(), db.get(key(i), ReadOptions.at(snaps.get(round))));
            }
        }
        assertNull(db.get(key(0)));
        for (io.bellows.engine.Snapshot s : snaps) {
            s.close();
        }
        db.compactRange(null, null);
        assertNull(db.get(key(0)));
        assertArrayEquals("4:1".getBytes(), db.get(key(1)));
        db.close();
    }
}
