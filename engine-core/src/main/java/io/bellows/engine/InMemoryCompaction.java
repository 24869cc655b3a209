package io.bellows.engine;

/**
 * The MemStore policy. It may differ between opens of the same store. Only policies that are fully
 * implemented are listed.
 */
public enum InMemoryCompaction {
    /** The baseline (HBase DefaultMemStore): one mutable skiplist segment plus the snapshot being flushed. */
    NONE
}
