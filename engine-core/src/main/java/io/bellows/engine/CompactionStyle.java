package io.bellows.engine;

/**
 * The disk compaction scheme of a store, recorded in its manifest: reopening a store with another
 * scheme is an error. Only schemes that are fully implemented are listed.
 */
public enum CompactionStyle {
    /** LevelDB/RocksDB leveled compaction: L0 of overlapping tables, then levels of disjoint tables. */
    LEVELED,
    /**
     * PebblesDB's fragmented LSM: levels divided by guards chosen from inserted keys; a full guard's
     * tables are merged and appended as one new table per child guard, without rewriting the children.
     */
    FLSM,
    /**
     * LSM-trie (paper 000): a hash trie of containers holding piles of HTables, fan-out 8. Point
     * operations only: cursors are not supported because no key order is kept on disk.
     */
    LSM_TRIE,
    /**
     * PTierDB's adaptive tiering (paper 002): tiered levels whose tables may overlap, output cut at key
     * prefix changes, tables merged or moved down by the coexisted merge-and-move rules, and read-driven
     * merges of overlapping tables at the largest level.
     */
    PTIER,
    /**
     * TRIAD (paper 004): leveled below L0, with L0→L1 compaction deferred while the L0 tables and the
     * L1 tables they overlap share few keys (TRIAD-DISK) and the hottest keys kept in memory at a
     * flush (TRIAD-MEM); each technique is switched in {@link TriadOptions}.
     */
    TRIAD
}
