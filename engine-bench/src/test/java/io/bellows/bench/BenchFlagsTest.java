package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Durability;
import io.bellows.engine.Compression;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TrieOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchFlagsTest {
    @Test
    void scaleFactorDividesEverySizeKnob() {
        EngineOptions d = EngineOptions.defaults();
        EngineOptions trie = BenchFlags.parse("--scale_factor=8", "--compaction=LSM_TRIE").engineOptions();
        assertEquals(d.memstoreSize() / 8, trie.memstoreSize());
        assertEquals(d.targetFileSize() / 8, trie.targetFileSize());
        assertEquals(d.maxBytesForLevelBase() / 8, trie.maxBytesForLevelBase());
        assertEquals(TrieOptions.defaults().tableBuckets() / 8, ((TrieOptions) trie.compactionOptions()).tableBuckets());
        FlsmOptions df = FlsmOptions.defaults();
        FlsmOptions f = (FlsmOptions) BenchFlags.parse("--scale_factor=8", "--compaction=FLSM").engineOptions()
                .compactionOptions();
        assertEquals(df.topLevelBits() - 3, f.topLevelBits(), "guards eight times as dense");
        assertEquals(df.bitDecrement(), f.bitDecrement());
        assertEquals(df.guardMaxBytes() / 8, f.guardMaxBytes());
        assertEquals(df.guardMinBytes() / 8, f.guardMinBytes());
        EngineOptions given = BenchFlags.parse("--scale_factor=2", "--memstore_size=32M").engineOptions();
        assertEquals(16L << 20, given.memstoreSize(), "a size given on the command line is scaled too");
        assertEquals(d.memstoreSize(), BenchFlags.parse("--scale_factor=1").engineOptions().memstoreSize());
        assertThrows(FlagException.class, () -> BenchFlags.parse("--scale_factor=3"));
        FlagException floor = assertThrows(FlagException.class,
                () -> BenchFlags.parse("--scale_factor=1024", "--trie_table_buckets=2048"));
        assertTrue(floor.getMessage().contains("TrieOptions.tableBuckets"), floor.getMessage());
    }

    @Test
    void defaults() {
        BenchOptions o = BenchFlags.parse();
        assertEquals(List.of(Workload.FILLSEQ, Workload.FILLRANDOM, Workload.OVERWRITE, Workload.READRANDOM,
                Workload.READSEQ, Workload.SEEKRANDOM, Workload.DELETERANDOM), o.benchmarks(),
                "default list runs every db_bench workload once, in order");
        assertEquals(1_000_000, o.num());
        assertEquals(200_000, o.reads());
        assertEquals(200_000, o.deletes());
        assertEquals(16, o.keySize());
        assertEquals(100, o.valueSize());
        assertEquals(1, o.threads());
        assertEquals(KeyDistribution.UNIFORM, o.distribution());
        assertEquals(Durability.ASYNC, o.durability());
        assertNull(o.db());
        assertFalse(o.useExistingDb());
        assertEquals(301, o.seed());
        assertEquals(1, o.batchSize());
        assertEquals(10, o.seekNexts());
        assertFalse(o.histogram());
        assertNull(o.csv());
        assertFalse(o.help());
        // The engine's defaults, but uncompressed, like the RocksDB side, unless --compression says otherwise.
        assertEquals(EngineOptions.builder().compression(Compression.NONE).bottommostCompression(Compression.NONE).build()
                .toString(), o.engineOptions().toString());
        BenchOptions levels = BenchFlags.parse("--compression=levels");
        assertEquals(EngineOptions.defaults().toString(), levels.engineOptions().toString());
        assertThrows(FlagException.class, () -> BenchFlags.parse("--compression=snappy"));
    }

    @Test
    void memoryLayoutFlags() {
        assertEquals(MemoryLayout.ON_HEAP, BenchFlags.parse().engineOptions().memoryLayout());
        BenchOptions o = BenchFlags.parse("--memory_layout=off_heap", "--inmemory=BASIC", "--memstore_size=64M",
                "--offheap_limit=1G");
        assertEquals(MemoryLayout.OFF_HEAP, o.engineOptions().memoryLayout());
        assertEquals(MemoryLayout.OFF_HEAP, o.bellowsOptions().memoryLayout());
        assertEquals("bellows:LEVELED/BASIC/OFF_HEAP", o.engine().label());
        assertEquals(1L << 30, o.engineOptions().offHeapLimit());
        assertRejected("--memory_layout must be one of ON_HEAP|OFF_HEAP", "--memory_layout=ARENA");
        assertRejected("--offheap_limit: offHeapLimit must be between", "--offheap_limit=1K");
        assertRejected("offHeapLimit", "--memstore_size=64M", "--offheap_limit=128M");
        assertRejected("mslab", "--memory_layout=OFF_HEAP", "--mslab=false");
    }

    @Test
    void overrides() {
        BenchOptions o = BenchFlags.parse("--benchmarks=readrandom,readrandom,fillseq", "--num=5000", "--reads=77",
                "--deletes=9", "--key_size=4", "--value_size=1K", "--threads=3", "--distribution=zipfian",
                "--durability=sync", "--compaction=LEVELED", "--inmemory=none", "--memstore_size=8M",
                "--block_cache_size=0", "--bloom_bits=0", "--db=/tmp/x", "--seed=-5", "--batch_size=100",
                "--seek_nexts=0", "--histogram", "--csv=out.csv");
        assertEquals(List.of(Workload.READRANDOM, Workload.READRANDOM, Workload.FILLSEQ), o.benchmarks());
        assertEquals(5000, o.num());
        assertEquals(77, o.reads());
        assertEquals(9, o.deletes());
        assertEquals(4, o.keySize());
        assertEquals(1024, o.valueSize());
        assertEquals(3, o.threads());
        assertEquals(KeyDistribution.ZIPFIAN, o.distribution());
        assertEquals(Durability.SYNC, o.durability());
        assertEquals(CompactionStyle.LEVELED, o.engineOptions().compaction());
        assertEquals(InMemoryCompaction.NONE, o.engineOptions().inMemoryCompaction());
        assertEquals(8L << 20, o.engineOptions().memstoreSize());
        assertEquals(0, o.engineOptions().blockCacheSize());
        assertEquals(0, o.engineOptions().bloomBitsPerKey());
        assertEquals(Path.of("/tmp/x"), o.db());
        assertEquals(-5, o.seed());
        assertEquals(100, o.batchSize());
        assertEquals(0, o.seekNexts());
        assertTrue(o.histogram());
        assertEquals(Path.of("out.csv"), o.csv());
    }

    @Test
    void schemeFlagsSetTheirSchemesOptions() {
        BenchOptions o = BenchFlags.parse("--compaction=FLSM", "--flsm_top_level_bits=21", "--flsm_bit_decrement=3",
                "--flsm_max_tables_per_guard=6", "--flsm_guard_max_bytes=32M", "--flsm_seek_compaction=0",
                "--flsm_parallel_seeks=true");
        assertEquals(CompactionStyle.FLSM, o.engineOptions().compaction());
        assertEquals(FlsmOptions.builder().guardBits(21, 3).maxTablesPerGuard(6).guardMaxBytes(32L << 20)
                .seekCompactionThreshold(0).parallelSeeks(true).build(), o.bellowsOptions().compactionOptions());
        assertEquals(FlsmOptions.builder().guardBits(27, 1).build(),
                BenchFlags.parse("--compaction=FLSM", "--flsm_bit_decrement=1").bellowsOptions().compactionOptions(),
                "an unset guard-bit flag keeps its default");
        BenchOptions trie = BenchFlags.parse("--compaction=lsm_trie", "--trie_table_buckets=512");
        assertEquals(TrieOptions.builder().tableBuckets(512).build(), trie.bellowsOptions().compactionOptions());
        // The scheme may come from --engine instead of --compaction.
        BenchOptions named = BenchFlags.parse("--engine=bellows:FLSM/NONE", "--flsm_max_tables_per_guard=7");
        assertEquals(7, ((FlsmOptions) named.bellowsOptions().compactionOptions()).maxTablesPerGuard());
        assertEquals(CompactionStyle.FLSM, named.bellowsOptions().compaction());
        assertEquals(FlsmOptions.defaults(), BenchFlags.parse("--compaction=FLSM").bellowsOptions().compactionOptions());
    }

    @Test
    void schemeFlagsOfAnotherSchemeAreRejectedNamingFlagAndScheme() {
        assertRejected("--flsm_max_tables_per_guard is an option of compaction scheme FLSM, but this run's scheme is"
                + " LEVELED (select it with --compaction=FLSM or --engine=bellows:FLSM)", "--flsm_max_tables_per_guard=6");
        assertRejected("--flsm_top_level_bits is an option of compaction scheme FLSM, but this run's scheme is LSM_TRIE",
                "--compaction=LSM_TRIE", "--flsm_top_level_bits=20");
        assertRejected("--trie_table_buckets is an option of compaction scheme LSM_TRIE, but this run's scheme is FLSM",
                "--compaction=FLSM", "--trie_table_buckets=512");
        assertRejected("--flsm_parallel_seeks is an option of compaction scheme FLSM, but this run's scheme is LEVELED",
                "--compaction=FLSM", "--engine=bellows:LEVELED/NONE", "--flsm_parallel_seeks=true");
        assertRejected("--flsm_seek_compaction is an option of compaction scheme FLSM, but this run's engine is rocksdb",
                "--compaction=FLSM", "--engine=rocksdb", "--flsm_seek_compaction=5");
        assertRejected("--trie_table_buckets is an option of compaction scheme LSM_TRIE, but no engine of --engines"
                + " uses LSM_TRIE", "--engines=bellows:LEVELED/NONE,bellows:FLSM/NONE,rocksdb", "--trie_table_buckets=64");
        // Range checks and the guard-bit check still name their limits.
        assertRejected("--flsm_max_tables_per_guard must be between 1 and 1000", "--compaction=FLSM",
                "--flsm_max_tables_per_guard=0");
        assertRejected("--trie_table_buckets: TrieOptions.tableBuckets must be between 4 and 65000, got 2",
                "--compaction=LSM_TRIE", "--trie_table_buckets=2");
        assertRejected("FLSM guard bits: level 19 would need -11 hash bits", "--compaction=FLSM", "--num_levels=20");
        assertRejected("FLSM guard bits: level 9 would need -1 hash bits", "--engine=bellows:FLSM/NONE",
                "--num_levels=10", "--flsm_top_level_bits=17");
        // Other schemes keep their own limits: numLevels 20 is fine for LEVELED.
        assertEquals(20, BenchFlags.parse("--num_levels=20").engineOptions().numLevels());
    }

    @Test
    void compareModeForwardsSchemeFlagsToTheirSchemeOnly() {
        BenchOptions o = BenchFlags.parse("--engines=bellows:LEVELED/NONE,bellows:FLSM/NONE,rocksdb",
                "--flsm_max_tables_per_guard=6", "--num=1000");
        assertEquals(3, o.engines().size());
        List<String> args = List.of("--flsm_max_tables_per_guard=6", "--num=1000", "--flsm_parallel_seeks",
                "--trie_table_buckets=64");
        assertEquals(List.of("--num=1000"), BenchFlags.forwardedTo(o.engines().get(0), args));
        assertEquals(List.of("--flsm_max_tables_per_guard=6", "--num=1000", "--flsm_parallel_seeks"),
                BenchFlags.forwardedTo(o.engines().get(1), args));
        assertEquals(List.of("--num=1000"), BenchFlags.forwardedTo(o.engines().get(2), args));
        assertEquals(List.of("--num=1000", "--trie_table_buckets=64"),
                BenchFlags.forwardedTo(EngineSpec.parse("bellows:LSM_TRIE/NONE"), args));
        assertEquals(CompactionStyle.FLSM, BenchFlags.schemeOf("flsm_bit_decrement"));
        assertEquals(CompactionStyle.LSM_TRIE, BenchFlags.schemeOf("trie_table_buckets"));
        assertNull(BenchFlags.schemeOf("num_levels"));
        // A child gets exactly those: it runs its scheme with them.
        BenchOptions child = BenchFlags.parse("--flsm_max_tables_per_guard=6", "--num=1000",
                "--engine=bellows:FLSM/NONE");
        assertEquals(6, ((FlsmOptions) child.bellowsOptions().compactionOptions()).maxTablesPerGuard());
    }

    @Test
    void readsAndDeletesDefaultToAFifthOfNumButAtLeastOne() {
        assertEquals(400, BenchFlags.parse("--num=2000").reads());
        assertEquals(400, BenchFlags.parse("--num=2000").deletes());
        assertEquals(1, BenchFlags.parse("--num=3").reads());
    }

    @Test
    void switchesTakeBareOrExplicitValues() {
        assertTrue(BenchFlags.parse("--help").help());
        assertTrue(BenchFlags.parse("--histogram=1").histogram());
        assertFalse(BenchFlags.parse("--histogram=false").histogram());
        BenchOptions o = BenchFlags.parse("--use_existing_db", "--db=d", "--benchmarks=readrandom");
        assertTrue(o.useExistingDb());
    }

    @Test
    void valueSizeAboveTheEngineDefaultRaisesTheEngineLimit() {
        BenchOptions o = BenchFlags.parse("--value_size=32M");
        assertEquals(32 << 20, o.engineOptions().maxValueLength());
    }

    @Test
    void badCommandLinesAreRejectedWithTheirReason() {
        assertRejected("unknown flag --nmu", "--nmu=5");
        assertRejected("expected --name=value", "num=5");
        assertRejected("expected --name=value", "-num=5");
        assertRejected("expected --name=value", "--");
        assertRejected("--num needs a value", "--num");
        assertRejected("--num takes an integer", "--num=abc");
        assertRejected("--num takes an integer", "--num=");
        assertRejected("--num must be between 1", "--num=0");
        assertRejected("--threads must be between 1 and 1024", "--threads=0");
        assertRejected("--key_size must be between 1", "--key_size=70000");
        assertRejected("--value_size takes a size", "--value_size=10X");
        assertRejected("--value_size must be between", "--value_size=1T");
        assertRejected("--memstore_size: memstoreSize must be between", "--memstore_size=1K");
        assertRejected("--distribution must be one of UNIFORM|ZIPFIAN", "--distribution=pareto");
        assertRejected("--durability must be one of SYNC|ASYNC|NONE", "--durability=fsync");
        assertRejected("--compaction must be one of", "--compaction=TIERED");
        assertRejected("--histogram takes true or false", "--histogram=yes");
        assertRejected("unknown benchmark 'fillrand'", "--benchmarks=fillseq,fillrand");
        assertRejected("empty entry", "--benchmarks=fillseq,,readseq");
        assertRejected("given more than once", "--num=5", "--num=6");
        assertRejected("holds only 256 distinct keys", "--key_size=1", "--num=257");
        assertRejected("--use_existing_db needs --db", "--use_existing_db", "--benchmarks=readrandom");
        assertRejected("fillseq starts from an empty one", "--use_existing_db", "--db=d");
    }

    @Test
    void smallKeysHoldExactlyTheirCapacity() {
        assertEquals(256, BenchFlags.parse("--key_size=1", "--num=256").num());
    }

    @Test
    void helpListsEveryFlagWithItsDefault() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchFlags.printHelp(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String help = bytes.toString(StandardCharsets.UTF_8);
        for (String name : BenchFlags.flagNames()) {
            assertTrue(help.contains("--" + name), "help lists --" + name);
        }
        for (Workload w : Workload.values()) {
            assertTrue(help.contains(w.flagName()), "help lists " + w.flagName());
        }
        assertTrue(help.contains("default: " + BenchFlags.DEFAULT_BENCHMARKS));
        assertTrue(help.contains("default: num/5"));
        assertTrue(help.contains("default: 64M"), "engine defaults are shown in K/M/G units");
    }

    @Test
    void sizesUseBinaryUnits() {
        assertEquals(4096, BenchFlags.bytesIn("x", "4K", 0, Long.MAX_VALUE));
        assertEquals(3L << 30, BenchFlags.bytesIn("x", "3g", 0, Long.MAX_VALUE));
        assertEquals(123, BenchFlags.bytesIn("x", "123", 0, Long.MAX_VALUE));
        assertEquals("64M", BenchFlags.sizeText(64L << 20));
        assertEquals("1000", BenchFlags.sizeText(1000));
        assertEquals("0", BenchFlags.sizeText(0));
        assertThrows(FlagException.class, () -> BenchFlags.bytesIn("x", "99999999999T", 0, Long.MAX_VALUE));
        assertThrows(FlagException.class, () -> BenchFlags.bytesIn("x", "-1", 0, Long.MAX_VALUE));
    }

    private static void assertRejected(String expectedMessagePart, String... args) {
        FlagException e = assertThrows(FlagException.class, () -> BenchFlags.parse(args));
        assertTrue(e.getMessage().contains(expectedMessagePart),
                "message '" + e.getMessage() + "' should contain '" + expectedMessagePart + "'");
    }
}
