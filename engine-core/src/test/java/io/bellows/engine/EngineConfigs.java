package io.bellows.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every configuration the conformance suites run under: each compaction scheme × each in-memory
 * policy that exists. A new scheme or policy joins every suite by being added to its enum.
 */
public final class EngineConfigs {
    private EngineConfigs() {}

    public static Stream<Arguments> all() {
        List<Arguments> out = new ArrayList<>();
        for (CompactionStyle style : CompactionStyle.values()) {
            for (InMemoryCompaction policy : InMemoryCompaction.values()) {
                out.add(Arguments.of(style, policy));
            }
        }
        return out.stream();
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
                // LSM_TRIE only: 64 KiB HTables, a three-level trie, piles compacted at four tables' worth.
                .trieTableBuckets(16)
                .trieDepth(3)
                .triePileLimits(4, 8, 12)
                .walSyncInterval(java.time.Duration.ofMillis(20));
        if (style == CompactionStyle.FLSM) {
            // Three guarded levels with guards at each for a thousand keys (L1 one in 128 keys, L2 one
            // in 32, L3 one in 8) that fill after two tables, so a few thousand writes push data
            // through every level and merge last-level guards in place.
            b.numLevels(4).flsmGuardBits(9, 2).flsmMaxTablesPerGuard(2).flsmGuardMaxBytes(64 << 10);
        }
        return b;
    }
}
