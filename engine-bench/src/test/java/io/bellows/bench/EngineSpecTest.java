package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.LeveledOptions;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.MemoryLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineSpecTest {
    private static final EngineOptions DEFAULTS = EngineOptions.defaults();

    @Test
    void parsesEveryFormAndPrintsItBack() {
        EngineSpec rocks = EngineSpec.parse("RocksDB");
        assertEquals(EngineSpec.Kind.ROCKSDB, rocks.kind());
        assertEquals("rocksdb", rocks.label());

        EngineSpec bare = EngineSpec.parse("bellows");
        assertNull(bare.compaction());
        assertEquals("bellows:LEVELED/NONE", bare.resolve(DEFAULTS).label());

        EngineSpec named = EngineSpec.parse(" bellows:leveled/none ");
        assertEquals(CompactionStyle.LEVELED, named.compaction());
        assertEquals(InMemoryCompaction.NONE, named.inMemory());
        assertEquals(named, EngineSpec.parse(named.label()));
        assertEquals("bellows-LEVELED-NONE", named.fileName());

        EngineSpec schemeOnly = EngineSpec.parse("bellows:LEVELED");
        assertNull(schemeOnly.inMemory());
        assertEquals(InMemoryCompaction.NONE, schemeOnly.resolve(DEFAULTS).inMemory());
    }

    @Test
    void theThirdPartIsTheMemoryLayout() {
        EngineSpec off = EngineSpec.parse("bellows:leveled/basic/off_heap");
        assertEquals(MemoryLayout.OFF_HEAP, off.layout());
        assertEquals("bellows:LEVELED/BASIC/OFF_HEAP", off.label());
        assertEquals("bellows-LEVELED-BASIC-OFF_HEAP", off.fileName());
        assertEquals(off, EngineSpec.parse(off.label()).resolve(DEFAULTS));
        EngineOptions applied = off.apply(DEFAULTS);
        assertEquals(MemoryLayout.OFF_HEAP, applied.memoryLayout());
        assertEquals(InMemoryCompaction.BASIC, applied.inMemoryCompaction());

        EngineSpec on = EngineSpec.parse("bellows:LEVELED/BASIC/ON_HEAP");
        assertEquals("bellows:LEVELED/BASIC", on.label(), "the default layout is left out of labels");
        assertEquals(on, EngineSpec.parse("bellows:LEVELED/BASIC").resolve(DEFAULTS));

        EngineOptions offDefaults = DEFAULTS.toBuilder().memoryLayout(MemoryLayout.OFF_HEAP).build();
        assertEquals(MemoryLayout.OFF_HEAP, EngineSpec.parse("bellows:LEVELED/BASIC").resolve(offDefaults).layout(),
                "an unnamed layout comes from --memory_layout");
        assertEquals(MemoryLayout.ON_HEAP, on.resolve(offDefaults).layout(), "a named one wins");
        assertRejected("'ARENA' is not one of", "bellows:LEVELED/BASIC/ARENA");
    }

    @Test
    void compareModeNamesEachLayoutInItsLabel() {
        BenchOptions o = BenchFlags.parse("--memory_layout=OFF_HEAP",
                "--engines=bellows:LEVELED/NONE/ON_HEAP,bellows:LEVELED/BASIC,bellows:LEVELED/ADAPTIVE/OFF_HEAP");
        assertEquals(List.of("bellows:LEVELED/NONE", "bellows:LEVELED/BASIC/OFF_HEAP", "bellows:LEVELED/ADAPTIVE/OFF_HEAP"),
                o.engines().stream().map(EngineSpec::label).toList(),
                "children get no --memory_layout, so each label names any layout but ON_HEAP");
        FlagException e = assertThrows(FlagException.class, () -> BenchFlags.parse("--memory_layout=OFF_HEAP",
                "--engines=bellows:LEVELED/BASIC,bellows:LEVELED/BASIC/OFF_HEAP"));
        assertTrue(e.getMessage().contains("twice"), e.getMessage());
    }

    @Test
    void everyEnumConstantIsAccepted() {
        for (CompactionStyle s : CompactionStyle.values()) {
            for (InMemoryCompaction p : InMemoryCompaction.values()) {
                EngineSpec spec = EngineSpec.parse("bellows:" + s + "/" + p);
                EngineOptions applied = spec.apply(DEFAULTS);
                assertEquals(s, applied.compaction());
                assertEquals(p, applied.inMemoryCompaction());
            }
        }
    }

    @Test
    void applyKeepsTheSchemeOptionsOfItsOwnScheme() {
        FlsmOptions flsm = FlsmOptions.builder().maxTablesPerGuard(6).build();
        EngineOptions withFlsm = EngineOptions.builder().compaction(flsm).build();
        assertEquals(flsm, EngineSpec.parse("bellows:FLSM/BASIC").apply(withFlsm).compactionOptions());
        assertEquals(TrieOptions.defaults(), EngineSpec.parse("bellows:LSM_TRIE/NONE").apply(withFlsm).compactionOptions(),
                "another scheme runs with its defaults");
        assertEquals(LeveledOptions.defaults(), EngineSpec.parse("bellows:LEVELED/NONE").apply(withFlsm)
                .compactionOptions());
        assertEquals(FlsmOptions.defaults(), EngineSpec.parse("bellows:FLSM/NONE").apply(DEFAULTS).compactionOptions());
    }

    @Test
    void rejectsWhatItCannotRun() {
        assertRejected("'NOPE' is not one of", "bellows:NOPE/NONE");
        assertRejected("'WHAT' is not one of", "bellows:LEVELED/WHAT");
        assertRejected("more parts", "bellows:LEVELED/NONE/X/Y");
        assertRejected("takes no configuration", "rocksdb:LEVELED");
        assertRejected("unknown engine 'leveldb'", "leveldb");
    }

    @Test
    void listsResolveAndRefuseDuplicates() {
        List<EngineSpec> specs = EngineSpec.parseList("bellows,rocksdb", DEFAULTS);
        assertEquals("bellows:LEVELED/NONE", specs.get(0).label());
        assertEquals("rocksdb", specs.get(1).label());
        FlagException e = assertThrows(FlagException.class,
                () -> EngineSpec.parseList("bellows,bellows:LEVELED/NONE", DEFAULTS));
        assertTrue(e.getMessage().contains("twice"), e.getMessage());
        assertThrows(FlagException.class, () -> EngineSpec.parseList("rocksdb,,bellows", DEFAULTS));
    }

    @Test
    void flagsPickTheBaseline() {
        BenchOptions o = BenchFlags.parse("--engines=bellows:LEVELED/NONE,rocksdb");
        assertTrue(o.compare());
        assertEquals(EngineSpec.parse("rocksdb"), o.baseline(), "rocksdb is the baseline when present");
        BenchOptions first = BenchFlags.parse("--engines=bellows:LEVELED/NONE");
        assertEquals("bellows:LEVELED/NONE", first.baseline().label());
        BenchOptions chosen = BenchFlags.parse("--engines=bellows,rocksdb", "--baseline=bellows");
        assertEquals("bellows:LEVELED/NONE", chosen.baseline().label());
        FlagException e = assertThrows(FlagException.class,
                () -> BenchFlags.parse("--engines=bellows", "--baseline=rocksdb"));
        assertTrue(e.getMessage().contains("not in --engines"), e.getMessage());
        assertThrows(FlagException.class, () -> BenchFlags.parse("--baseline=rocksdb"));
        BenchOptions single = BenchFlags.parse("--engine=rocksdb");
        assertTrue(!single.compare() && single.engine().kind() == EngineSpec.Kind.ROCKSDB);
    }

    @Test
    void ycsbFlags() {
        BenchOptions o = BenchFlags.parse("--num=1000");
        assertEquals(200, o.operations());
        assertNull(o.requestDistribution(), "each YCSB workload's own distribution");
        assertEquals(100, o.scanLength());
        BenchOptions set = BenchFlags.parse("--operations=77", "--request_distribution=uniform", "--scan_length=5");
        assertEquals(77, set.operations());
        assertEquals(KeyDistribution.UNIFORM, set.requestDistribution());
        assertEquals(5, set.scanLength());
        assertEquals(77, Workload.YCSB_A.ops(set));
    }

    private static void assertRejected(String part, String spec) {
        FlagException e = assertThrows(FlagException.class, () -> EngineSpec.parse(spec));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
