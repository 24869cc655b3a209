package io.bellows.engine.internal.memstore.spi;

/** The outcome of an in-memory compaction: the new segment and what it left out. */
public record Compacted(ImmutableSegment segment, long cellsEliminated, long bytesEliminated) {}
