package io.bellows.engine;

/**
 * The MemStore policy. It may differ between opens of the same store: nothing on disk depends on it.
 * Only policies that are fully implemented are listed. The compacting policies (Accordion) keep a small
 * skiplist active segment and a pipeline of immutable flat segments; see docs/tuning.md.
 */
public enum InMemoryCompaction {
    /** The baseline (HBase DefaultMemStore): one mutable skiplist segment plus the snapshot being flushed. */
    NONE,
    /** Flattens each pushed segment's index; merges the indices when the pipeline exceeds its bound. Never drops data. */
    BASIC,
    /** Compacts the whole pipeline, dropping versions no reader can see, on every in-memory flush. */
    EAGER,
    /** BASIC, but compacts instead with a growing probability when the last merge found enough redundancy. */
    ADAPTIVE
}
