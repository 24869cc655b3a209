package io.bellows.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every configuration the conformance suites run under: each compaction scheme × each in-memory
 * policy × each memory layout this test run covers. A new scheme or policy joins every suite by being
 * added to its enum. engine-core's run covers ON_HEAP; engine-offheap reruns the same suites with
 * {@code -Dbellows.test.layouts=OFF_HEAP}, since only it has that layout on its class path.
 */
public final class EngineConfigs {
    private EngineConfigs() {}

    public static Stream<Arguments> all() {
        List<Arguments> out = new ArrayList<>();
        for (MemoryLayout layout : layouts()) {
            for (CompactionStyle style : schemes()) {
                for (InMemoryCompaction policy : InMemoryCompaction.values()) {
                    out.add(Arguments.of(style, policy, layout));
                }
            }
        }
        return out.stream();
    }

    /**
     * The schemes this test run covers: {@code bellows.test.schemes}, comma-separated, default every
     * {@link CompactionStyle} (a targeted run of one scheme's conformance suites).
     */
    public static List<CompactionStyle> schemes() {
        String names = System.getProperty("bellows.test.schemes");
        if (names == null) {
            return List.of(CompactionStyle.values());
        }
        List<CompactionStyle> out = new ArrayList<>();
        for (String name : names.split(",")) {
            out.add(CompactionStyle.valueOf(name.trim()));
        }
        return out;
    }

    /** The layouts this test run covers: {@code bellows.test.layouts}, comma-separated, default ON_HEAP. */
    public static List<MemoryLayout> layouts() {
        List<MemoryLayout> out = new ArrayList<>();
        for (String name : System.getProperty("bellows.test.layouts", "ON_HEAP").split(",")) {
            out.add(MemoryLayout.valueOf(name.trim()));
        }
        return out;
    }

    public static EngineOptions.Builder small(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout) {
        return small(style, policy).memoryLayout(layout);
    }

    /**
     * Options small enough that a few thousand operations go through many flushes, every level and
     * many compactions.
     */
    public static EngineOptions.Builder small(CompactionStyle style, InMemoryCompaction policy) {
        EngineOptions.Builder b = EngineOptions.builder()
                .compaction(style)
                .inMemoryCompaction(policy)
                .memstoreSize(64 << 10)
                .blockSize(512)
                .blockRestartInterval(4)
                .targetFileSize(64 << 10)
                .maxBytesForLevelBase(128 << 10)
                .levelSizeMultiplier(4)
                .numLevels(5)
                .l0Triggers(2, 8, 12)
                .blockCacheSize(256 << 10)
                .walSyncInterval(java.time.Duration.ofMillis(20));
        if (style == CompactionStyle.FLSM) {
            b.numLevels(4).compaction(smallFlsm().build());
        } else if (style == CompactionStyle.LSM_TRIE) {
            b.compaction(smallTrie().build());
        } else if (style == CompactionStyle.PTIER) {
            b.compaction(smallPtier().build());
        } else if (style == CompactionStyle.TRIAD) {
            b.compaction(TriadOptions.defaults());
        }
        return b;
    }

    /**
     * The FLSM options of {@link #small}: three guarded levels (with its {@code numLevels(4)}) with
     * guards at each for a thousand keys (L1 one in 128 keys, L2 one in 32, L3 one in 8) that fill
     * after two tables, so a few thousand writes push data through every level and merge last-level
     * guards in place; guards left with under 1 KiB at a level are retired there.
     */
    public static FlsmOptions.Builder smallFlsm() {
        return FlsmOptions.builder().guardBits(9, 2).maxTablesPerGuard(2).guardMaxBytes(64 << 10).guardMinBytes(1 << 10);
    }

    /**
     * The LSM_TRIE options of {@link #small}: 64 KiB HTables, a three-level trie, piles compacted at
     * four tables' worth.
     */
    public static TrieOptions.Builder smallTrie() {
        return TrieOptions.builder().tableBuckets(16).depth(3).pileLimits(4, 8, 12);
    }

    /**
     * The PTIER options of {@link #small}: one-byte prefixes (a few keys each in the suites' key spaces,
     * so tables are cut often) and an intra-level merge after 20 reads of an overlapped last-level table,
     * so the suites' gets trigger it.
     */
    public static PtierOptions.Builder smallPtier() {
        return PtierOptions.builder().prefixLength(1).intraLevelMergeReads(20);
    }
}
