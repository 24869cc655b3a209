package io.bellows.engine;

/**
 * Which table of a level over its target a leveled compaction merges into the level below (RocksDB's
 * {@code compaction_pri}). L0 always compacts whole; this decides for the deeper levels.
 */
public enum CompactionPriority {
    /**
     * The table whose overlap with the next level is smallest relative to its own size (RocksDB's
     * {@code kMinOverlappingRatio}, its default since 7.0): each compaction rewrites the fewest bytes
     * below per byte it pushes down, which lowers write amplification under random writes.
     */
    MIN_OVERLAPPING_RATIO,
    /**
     * The table after the one compacted last, cycling through the key space (LevelDB's compaction
     * pointer, RocksDB's {@code kRoundRobin}); the position survives a restart.
     */
    ROUND_ROBIN
}
