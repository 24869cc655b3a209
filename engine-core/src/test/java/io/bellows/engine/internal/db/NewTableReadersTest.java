package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.CorruptionException;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every table a flush or compaction writes is open, from what its writer kept, before any read
 * reaches it: a get of a table compaction never read back pays its data block only, not an open of
 * three block reads (an SSTable's index, filter and properties; an HTable's header, footer and
 * metadata) as well.
 */
class NewTableReadersTest {
    private static final Path DIR = Path.of("/db");

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM", "LSM_TRIE"})
    void newTablesAreOpenBeforeTheirFirstRead(CompactionStyle style) throws Exception {
        long seed = TestSeeds.seed("NewTableReadersTest." + style);
        Random rnd = new Random(seed);
        EngineOptions.Builder b = EngineOptions.builder().memstoreSize(128 << 10).targetFileSize(64 << 10).blockCacheSize(0);
        // LSM_TRIE's tables are sized by its bucket count, not targetFileSize: 16 buckets, 64 KiB.
        EngineOptions o = (style == CompactionStyle.LSM_TRIE ? b.compaction(TrieOptions.builder().tableBuckets(16).build())
                : b.compaction(style)).build();
        int keys = 20_000;
        byte[][] values = new byte[keys][];
        try (EngineImpl db = EngineImpl.open(DIR, o, new CrashableFileSystem())) {
            for (int i = 0; i < keys; i++) {
                int k = rnd.nextInt(keys);
                values[k] = new byte[1 + rnd.nextInt(100)];
                rnd.nextBytes(values[k]);
                db.put(key(k), values[k]);
            }
            db.flush();
            TrieEngineTest.waitForCompactions(db);
            db.sweepObsoleteFiles();
            long[] live = db.versions().liveTables().toArray();
            assertTrue(live.length > 3, "tables: " + live.length);
            for (long n : live) {
                assertNotNull(db.tables().ifOpen(n), "table " + n + " is not open, seed=" + seed);
            }
            assertEquals(live.length, db.tables().openReaders(), "readers of dropped tables are closed");

            EngineStats.Reads before = db.stats().reads();
            int gets = 0;
            for (int k = 0; k < keys; k++) {
                if (values[k] != null) {
                    assertArrayEquals(values[k], db.get(key(k)), "seed=" + seed);
                    gets++;
                }
            }
            long reads = db.stats().reads().blockReads() - before.blockReads();
            // One data block per get, plus the tables a bloom false positive sends it to.
            assertTrue(reads >= gets && reads <= gets * 1.05, reads + " block reads for " + gets + " gets, seed=" + seed);
            assertReadersKeptInVersion(db, seed);
        }
    }

    /**
     * The gets above reached tables through the current version's own {@code FileMeta}s, which now hold
     * their readers: a later get finds its reader there, with no lookup in the table cache's map. A scheme
     * that handed gets copies of its tables' metadata would leave the version's without readers.
     */
    private static void assertReadersKeptInVersion(EngineImpl db, long seed) {
        Version v = db.versions().current();
        int tables = 0;
        int kept = 0;
        for (int level = 0; level < v.numLevels(); level++) {
            for (FileMeta f : v.files(level)) {
                tables++;
                Object r = f.cachedReader();
                if (r != null) {
                    assertSame(db.tables().ifOpen(f.number), r, "table " + f.number + ", seed=" + seed);
                    kept++;
                }
            }
        }
        // A table every key of which a newer table shadows is never read; the rest are.
        assertTrue(kept >= tables * 0.9, kept + " of " + tables + " tables hold their reader, seed=" + seed);
    }

    /**
     * With {@code preloadTables}, a reopened store has every table open when open returns (the tables of
     * an earlier run, which no writer handed over); without it, none until read. A table whose footer is
     * damaged does not fail the open: its first read reports it, as a lazily opened table's would.
     */
    @ParameterizedTest
    @EnumSource(CompactionStyle.class)
    void preloadOpensEveryTableOfAReopenedStore(CompactionStyle style) throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        EngineOptions.Builder b = EngineConfigs.small(style, InMemoryCompaction.NONE);
        try (EngineImpl db = EngineImpl.open(DIR, b.build(), fs)) {
            Random rnd = new Random(7);
            for (int k = 0; k < 3000; k++) {
                byte[] v = new byte[300];
                rnd.nextBytes(v);
                db.put(key(k), v);
            }
            db.flush();
            TrieEngineTest.waitForCompactions(db);
        }
        long[] live;
        long victim;
        try (EngineImpl db = EngineImpl.open(DIR, b.build(), fs)) {
            live = db.versions().liveTables().toArray();
            assertTrue(live.length > 3, style + " tables: " + live.length);
            assertTrue(db.tables().openReaders() < live.length, "lazily: " + db.tables().openReaders());
            victim = tableOfDeepestLevel(db.versions().current());
        }
        try (EngineImpl db = EngineImpl.open(DIR, b.preloadTables(3).build(), fs)) {
            for (long n : live) {
                assertNotNull(db.tables().ifOpen(n), style + " table " + n + " is not open");
            }
        }
        Path damaged = FileNames.table(DIR, victim);
        byte[] bytes = fs.readAll(damaged);
        bytes[bytes.length - 9] ^= 0x40;
        fs.overwrite(damaged, bytes);
        try (EngineImpl db = EngineImpl.open(DIR, b.preloadTables(3).build(), fs)) {
            assertNull(db.tables().ifOpen(victim), "a damaged table stays closed");
            assertEquals(live.length - 1, db.tables().openReaders());
            CorruptionException e = assertThrows(CorruptionException.class, () -> {
                for (int k = 0; k < 3000; k++) {
                    db.get(key(k));
                }
            });
            assertEquals(damaged, e.file());
        }
    }

    /**
     * A table of the deepest level that holds any: not one TRIAD's open reads. That open reads its L0
     * tables (a CL-table names the logs it needs) and the sketches of its L0 and base-level tables, so a
     * damaged one of those fails the open, as RocksDB's open fails on a damaged table it opens; this
     * store's data spans more than one level, so the deepest is below TRIAD's base level.
     */
    private static long tableOfDeepestLevel(Version v) {
        for (int level = v.numLevels() - 1; level > 0; level--) {
            if (!v.files(level).isEmpty()) {
                return v.files(level).get(0).number;
            }
        }
        throw new AssertionError("no table below L0");
    }

    private static byte[] key(int k) {
        return String.format("user%012d", k).getBytes();
    }
}
