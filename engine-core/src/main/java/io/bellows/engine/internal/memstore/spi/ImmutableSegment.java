package io.bellows.engine.internal.memstore.spi;

/** A segment built by flattening, merging or compacting: read-only, with its unique keys counted. */
public interface ImmutableSegment extends Segment {
    /** Distinct user keys: ADAPTIVE's uniqueness estimate reads it after a merge or compaction. */
    long uniqueKeys();
}
