package io.bellows.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TrieOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class BellowsSettingsTest {
    @Test
    void defaultsAreTheEngineDefaultsAndAsyncWrites() throws DBException {
        BellowsSettings s = BellowsSettings.parse(props("bellows.dir", "/tmp/x/../y", "recordcount", "5", "threadcount", "2"));
        assertEquals(Path.of("/tmp/y"), s.dir());
        assertEquals(Durability.ASYNC, s.durability());
        assertEquals(EngineOptions.defaults().toString(), s.options().toString());
    }

    @Test
    void everyKeyReachesItsOption() throws DBException {
        BellowsSettings s = BellowsSettings.parse(props(
                "bellows.dir", "/tmp/db",
                "bellows.compaction", "leveled",
                "bellows.inmemory", "None",
                "bellows.memstore_size", "8m",
                "bellows.durability", "sync",
                "bellows.block_cache_size", "1g",
                "bellows.bloom_bits", "12",
                "bellows.direct_io", "FALSE",
                "bellows.max_value_length", "4096",
                "bellows.block_size", "16k",
                "bellows.block_restart_interval", "8",
                "bellows.target_file_size", "2m",
                "bellows.max_bytes_for_level_base", "10m",
                "bellows.level_size_multiplier", "8",
                "bellows.num_levels", "5",
                "bellows.l0_compaction_trigger", "2",
                "bellows.l0_stop_trigger", "50",
                "bellows.wal_sync_interval_ms", "7",
                "bellows.background_threads", "3",
                "bellows.preload_tables", "4",
                "bellows.create_if_missing", "false",
                "bellows.error_if_exists", "true"));
        EngineOptions o = s.options();
        assertEquals(CompactionStyle.LEVELED, o.compaction());
        assertEquals(InMemoryCompaction.NONE, o.inMemoryCompaction());
        assertEquals(8L << 20, o.memstoreSize());
        assertEquals(Durability.SYNC, s.durability());
        assertEquals(1L << 30, o.blockCacheSize());
        assertEquals(12, o.bloomBitsPerKey());
        assertFalse(o.directIo());
        assertEquals(4096, o.maxValueLength());
        assertEquals(16 << 10, o.blockSize());
        assertEquals(8, o.blockRestartInterval());
        assertEquals(2L << 20, o.targetFileSize());
        assertEquals(10L << 20, o.maxBytesForLevelBase());
        assertEquals(8, o.levelSizeMultiplier());
        assertEquals(5, o.numLevels());
        assertEquals(2, o.l0CompactionTrigger());
        assertEquals(EngineOptions.defaults().l0SlowdownTrigger(), o.l0SlowdownTrigger());
        assertEquals(50, o.l0StopTrigger());
        assertEquals(Duration.ofMillis(7), o.walSyncInterval());
        assertEquals(3, o.backgroundThreads());
        assertEquals(4, o.preloadTableThreads());
        assertFalse(o.createIfMissing());
        assertTrue(o.errorIfExists());
    }

    @Test
    void memstoreAndSchemeKeysReachTheirOptions() throws DBException {
        EngineOptions o = BellowsSettings.parse(props(
                "bellows.dir", "/tmp/db",
                "bellows.compaction", "flsm",
                "bellows.inmemory", "adaptive",
                "bellows.active_segment_fraction", "0.05",
                "bellows.pipeline_segments", "3",
                "bellows.adaptive_threshold", "0.3",
                "bellows.mslab", "false",
                "bellows.mslab_chunk_size", "1m",
                "bellows.flsm_top_level_bits", "21",
                "bellows.flsm_max_tables_per_guard", "6",
                "bellows.flsm_guard_max_bytes", "32m",
                "bellows.flsm_seek_compaction_threshold", "0",
                "bellows.flsm_parallel_seeks", "true")).options();
        assertEquals(CompactionStyle.FLSM, o.compaction());
        assertEquals(InMemoryCompaction.ADAPTIVE, o.inMemoryCompaction());
        assertEquals(0.05, o.activeSegmentFraction());
        assertEquals(3, o.pipelineSegments());
        assertEquals(0.3, o.adaptiveThreshold());
        assertFalse(o.mslab());
        assertEquals(1 << 20, o.mslabChunkSize());
        FlsmOptions flsm = (FlsmOptions) o.compactionOptions();
        assertEquals(21, flsm.topLevelBits());
        assertEquals(FlsmOptions.defaults().bitDecrement(), flsm.bitDecrement());
        assertEquals(6, flsm.maxTablesPerGuard());
        assertEquals(32L << 20, flsm.guardMaxBytes());
        assertEquals(0, flsm.seekCompactionThreshold());
        assertTrue(flsm.parallelSeeks());
    }

    @Test
    void traceKeysReachTheTraceOption() throws DBException {
        EngineOptions o = BellowsSettings.parse(props("bellows.dir", "/tmp/db", "bellows.trace", "/tmp/t/../run.trace",
                "bellows.trace_values", "true")).options();
        assertEquals(Path.of("/tmp/run.trace"), o.traceFile());
        assertTrue(o.traceOptions().values());
        assertNull(BellowsSettings.parse(props("bellows.dir", "/tmp/db")).options().traceFile());
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.trace_values", "true"), "bellows.trace_values needs bellows.trace=FILE");
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.trace", "/tmp/t", "bellows.trace_values", "yes"),
                "bellows.trace_values=yes is not true or false");
    }

    @Test
    void trieKeysReachTheirOptions() throws DBException {
        EngineOptions o = BellowsSettings.parse(props(
                "bellows.dir", "/tmp/db",
                "bellows.compaction", "lsm_trie",
                "bellows.trie_depth", "4",
                "bellows.trie_table_buckets", "512",
                "bellows.trie_bloom_bits", "12",
                "bellows.trie_filter_cache_size", "8m",
                "bellows.trie_gc_garbage_ratio", "0.4",
                "bellows.trie_hash_seed", "-7",
                "bellows.trie_pile_stop", "30")).options();
        assertEquals(CompactionStyle.LSM_TRIE, o.compaction());
        TrieOptions trie = (TrieOptions) o.compactionOptions();
        assertEquals(4, trie.depth());
        assertEquals(512, trie.tableBuckets());
        assertEquals(12, trie.bloomBitsPerKey());
        assertEquals(8L << 20, trie.filterCacheSize());
        assertEquals(0.4, trie.gcGarbageRatio());
        assertEquals(-7L, trie.hashSeed().getAsLong());
        assertEquals(TrieOptions.defaults().pileTrigger(), trie.pileTrigger());
        assertEquals(30, trie.pileStop());
    }

    @Test
    void schemeKeysOfAnotherSchemeAreRefusedNamingTheirScheme() throws DBException {
        assertRefused(props("bellows.dir", "/d", "bellows.flsm_max_tables_per_guard", "6"),
                "bellows.flsm_max_tables_per_guard is an option of compaction scheme FLSM, but bellows.compaction is"
                        + " LEVELED (the default); set bellows.compaction=FLSM to use it");
        assertRefused(props("bellows.dir", "/d", "bellows.compaction", "lsm_trie", "bellows.flsm_bit_decrement", "1"),
                "bellows.flsm_bit_decrement is an option of compaction scheme FLSM, but bellows.compaction is"
                        + " LSM_TRIE; set bellows.compaction=FLSM to use it");
        assertRefused(props("bellows.dir", "/d", "bellows.compaction", "flsm", "bellows.trie_pile_stop", "30"),
                "bellows.trie_pile_stop is an option of compaction scheme LSM_TRIE, but bellows.compaction is"
                        + " FLSM; set bellows.compaction=LSM_TRIE to use it");
        assertRefused(props("bellows.dir", "/d", "bellows.compaction", "leveled", "bellows.trie_depth", "4"),
                "bellows.trie_depth is an option of compaction scheme LSM_TRIE, but bellows.compaction is"
                        + " LEVELED; set bellows.compaction=LSM_TRIE to use it");
        // Its own scheme's keys are accepted, and unset ones keep the scheme's defaults.
        assertEquals(FlsmOptions.defaults(), BellowsSettings.parse(props("bellows.dir", "/d", "bellows.compaction",
                "FLSM")).options().compactionOptions());
    }

    @Test
    void groupedSchemeKeysReportTheirLimits() {
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.compaction", "lsm_trie", "bellows.trie_pile_trigger", "30",
                "bellows.trie_pile_stop", "20"),
                "bellows.trie_pile_trigger/bellows.trie_pile_slowdown/bellows.trie_pile_stop = 30/14/20 rejected: "
                        + "trie pile limits must satisfy compaction (30) <= slowdown (14) <= stop (20)");
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.adaptive_threshold", "half"),
                "bellows.adaptive_threshold=half is not a number");
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.compaction", "flsm", "bellows.flsm_bit_decrement", "17"),
                "bellows.flsm_top_level_bits/bellows.flsm_bit_decrement = 27/17 rejected: "
                        + "FlsmOptions.bitDecrement must be between 0 and 16, got 17");
        assertRefused(props("bellows.dir", "/tmp/db", "bellows.compaction", "flsm", "bellows.num_levels", "20"),
                "options do not fit together: FLSM guard bits: level 19 would need -11 hash bits; topLevelBits (27)"
                        + " - (numLevels - 1) (19) * bitDecrement (2) must be at least 1");
    }

    @Test
    void dirIsRequired() {
        assertRefused(props("bellows.compaction", "LEVELED"), "bellows.dir is required: the directory of the store, e.g. -p bellows.dir=/tmp/bellows-ycsb");
        assertRefused(props("bellows.dir", " "), "bellows.dir is required: the directory of the store, e.g. -p bellows.dir=/tmp/bellows-ycsb");
    }

    @Test
    void unknownKeysAreRefusedWithTheListOfKnownOnes() {
        DBException e = assertThrows(DBException.class, () -> BellowsSettings.parse(props("bellows.dir", "/tmp/db", "bellows.memstoresize", "8m")));
        assertEquals("unknown property bellows.memstoresize; the Bellows binding accepts " + String.join(", ", BellowsSettings.knownKeys()), e.getMessage());
        assertTrue(Arrays.asList(BellowsSettings.knownKeys()).contains("bellows.memstore_size"));
        // The layout's key is bellows.memory_layout; a near miss is refused like any other unknown key.
        assertThrows(DBException.class, () -> BellowsSettings.parse(props("bellows.dir", "/tmp/db", "bellows.layout", "OFF_HEAP")));
    }

    @Test
    void memoryLayoutKeysReachTheirOptions() throws DBException {
        EngineOptions o = BellowsSettings.parse(props(
                "bellows.dir", "/tmp/db",
                "bellows.inmemory", "basic",
                "bellows.memory_layout", "off_heap",
                "bellows.memstore_size", "64m",
                "bellows.offheap_limit", "1g")).options();
        assertEquals(MemoryLayout.OFF_HEAP, o.memoryLayout());
        assertEquals(1L << 30, o.offHeapLimit());
        assertEquals(MemoryLayout.ON_HEAP, BellowsSettings.parse(props("bellows.dir", "/d")).options().memoryLayout());
        assertEquals(0, BellowsSettings.parse(props("bellows.dir", "/d")).options().offHeapLimit(),
                "unset: the engine's default limit");
        assertTrue(Arrays.asList(BellowsSettings.knownKeys()).containsAll(
                Arrays.asList("bellows.memory_layout", "bellows.offheap_limit")));
    }

    @Test
    void memoryLayoutKeysAreChecked() {
        assertRefused(props("bellows.dir", "/d", "bellows.memory_layout", "arena"),
                "bellows.memory_layout=arena is not one of " + Arrays.toString(MemoryLayout.values()));
        assertRefused(props("bellows.dir", "/d", "bellows.offheap_limit", "1gb"),
                "bellows.offheap_limit=1gb is not a byte count such as 67108864 or 64m (suffixes k, m, g, t)");
        DBException small = assertThrows(DBException.class,
                () -> BellowsSettings.parse(props("bellows.dir", "/d", "bellows.offheap_limit", "1k")));
        assertTrue(small.getMessage().startsWith("bellows.offheap_limit=1k is out of range: offHeapLimit"),
                small.getMessage());
    }

    @Test
    void enumsNameTheAllowedValues() {
        assertRefused(props("bellows.dir", "/d", "bellows.compaction", "tiered"),
                "bellows.compaction=tiered is not one of " + Arrays.toString(CompactionStyle.values()));
        assertRefused(props("bellows.dir", "/d", "bellows.inmemory", "x"),
                "bellows.inmemory=x is not one of " + Arrays.toString(InMemoryCompaction.values()));
        assertRefused(props("bellows.dir", "/d", "bellows.durability", "fsync"), "bellows.durability=fsync is not one of [SYNC, ASYNC, NONE]");
    }

    @Test
    void malformedNumbersAndBooleansAreRefused() {
        assertRefused(props("bellows.dir", "/d", "bellows.memstore_size", "64MB"),
                "bellows.memstore_size=64MB is not a byte count such as 67108864 or 64m (suffixes k, m, g, t)");
        assertRefused(props("bellows.dir", "/d", "bellows.memstore_size", "-1"),
                "bellows.memstore_size=-1 is not a byte count such as 67108864 or 64m (suffixes k, m, g, t)");
        assertRefused(props("bellows.dir", "/d", "bellows.block_cache_size", "9999999999999999999t"), "bellows.block_cache_size=9999999999999999999t is too large");
        assertRefused(props("bellows.dir", "/d", "bellows.block_size", "4g"), "bellows.block_size=4g is too large: at most 2147483647 bytes");
        assertRefused(props("bellows.dir", "/d", "bellows.bloom_bits", "ten"), "bellows.bloom_bits=ten is not an integer");
        assertRefused(props("bellows.dir", "/d", "bellows.direct_io", "yes"), "bellows.direct_io=yes is not true or false");
    }

    @Test
    void valuesOutsideTheEngineLimitsNameKeyAndLimit() {
        assertRefused(props("bellows.dir", "/d", "bellows.memstore_size", "1k"),
                "bellows.memstore_size=1k is out of range: memstoreSize must be between 65536 and 68719476736, got 1024");
        assertRefused(props("bellows.dir", "/d", "bellows.bloom_bits", "65"),
                "bellows.bloom_bits=65 is out of range: bloomBitsPerKey must be between 0 and 64, got 65");
        assertRefused(props("bellows.dir", "/d", "bellows.l0_compaction_trigger", "30"),
                "bellows.l0_compaction_trigger/bellows.l0_slowdown_trigger/bellows.l0_stop_trigger = 30/20/36 rejected: "
                        + "L0 triggers must satisfy compaction (30) <= slowdown (20) <= stop (36)");
    }

    @Test
    void sameAsComparesDirectoryAndTheOtherBellowsPropertiesOnly() throws DBException {
        BellowsSettings a = BellowsSettings.parse(props("bellows.dir", "/d", "bellows.bloom_bits", "5", "threadcount", "1"));
        BellowsSettings b = BellowsSettings.parse(props("bellows.dir", "/d", "bellows.bloom_bits", "5", "threadcount", "4"));
        BellowsSettings c = BellowsSettings.parse(props("bellows.dir", "/d", "bellows.bloom_bits", "6"));
        BellowsSettings d = BellowsSettings.parse(props("bellows.dir", "/d/./", "bellows.bloom_bits", "5"));
        BellowsSettings e = BellowsSettings.parse(props("bellows.dir", "/e", "bellows.bloom_bits", "5"));
        assertTrue(a.sameAs(b));
        assertFalse(a.sameAs(c));
        assertTrue(a.sameAs(d), "directories compare normalized");
        assertFalse(a.sameAs(e));
    }

    private static void assertRefused(Properties p, String message) {
        DBException e = assertThrows(DBException.class, () -> BellowsSettings.parse(p));
        assertEquals(message, e.getMessage());
    }

    static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }
}
