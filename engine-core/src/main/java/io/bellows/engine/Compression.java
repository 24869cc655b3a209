package io.bellows.engine;

/**
 * How the data blocks of SSTables are compressed (pure Java codecs, aircompressor). A block that does
 * not shrink by at least an eighth is stored raw. Index, filter and properties blocks are never
 * compressed, nor are LSM_TRIE's HTables (their buckets are fixed-size pages that one read must reach).
 */
public enum Compression {
    /** Data blocks are stored as they are. */
    NONE,
    /** Fast to write and read, a modest ratio: for the levels compactions rewrite often. */
    LZ4,
    /** Slower to write, a better ratio: for the last level, which holds most of the data. */
    ZSTD
}
