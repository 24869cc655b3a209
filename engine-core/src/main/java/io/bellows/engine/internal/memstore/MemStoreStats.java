package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;

/**
 * A point-in-time view of a MemStore's shape: bytes by segment kind (data = key and value bytes, heap =
 * what lives on the Java heap, off-heap = what lives outside it), pipeline length, ADAPTIVE's estimates
 * and the layout's chunk pool.
 */
public final class MemStoreStats {
    public final long skiplistDataBytes;
    public final long skiplistHeapBytes;
    public final long skiplistEntries;
    public final long flatDataBytes;
    public final long flatHeapBytes;
    public final long flatEntries;
    public final long serializedDataBytes;
    public final long serializedHeapBytes;
    public final long serializedEntries;
    /** Tombstones among the entries, by kind: skiplist, flat, serialized. */
    public final long skiplistDeletions;
    public final long flatDeletions;
    public final long serializedDeletions;
    /** Off-heap bytes held by all segments: cell data, record headers and serialized indices. */
    public final long offHeapBytes;
    /** Immutable segments in the pipeline (the snapshot being flushed not included). */
    public final int pipelineSegments;
    /** ADAPTIVE's uniqueness estimate u (1 when unknown or not ADAPTIVE). */
    public final double uniqueness;
    /** ADAPTIVE's throttle t (0 when not ADAPTIVE). */
    public final double throttle;
    /** The layout's chunk pool: chunks held by segments, chunks kept for reuse, off-heap bytes allocated. */
    public final SegmentLayout.PoolStats pool;

    private MemStoreStats(long[] v, int pipelineSegments, double uniqueness, double throttle,
            SegmentLayout.PoolStats pool) {
        this.skiplistDataBytes = v[0];
        this.skiplistHeapBytes = v[1];
        this.skiplistEntries = v[2];
        this.flatDataBytes = v[3];
        this.flatHeapBytes = v[4];
        this.flatEntries = v[5];
        this.serializedDataBytes = v[6];
        this.serializedHeapBytes = v[7];
        this.serializedEntries = v[8];
        this.offHeapBytes = v[9];
        this.skiplistDeletions = v[10];
        this.flatDeletions = v[11];
        this.serializedDeletions = v[12];
        this.pipelineSegments = pipelineSegments;
        this.uniqueness = uniqueness;
        this.throttle = throttle;
        this.pool = pool;
    }

    /** Sums segment sizes by kind. */
    static MemStoreStats of(Iterable<Segment> segments, int pipelineSegments, double uniqueness, double throttle,
            SegmentLayout.PoolStats pool) {
        long[] v = new long[13];
        for (Segment s : segments) {
            int base;
            switch (s.kind()) {
                case "skiplist":
                    base = 0;
                    break;
                case "flat":
                    base = 3;
                    break;
                case "serialized":
                    base = 6;
                    break;
                default:
                    throw new IllegalStateException("segment kind " + s.kind() + " has no statistics bucket");
            }
            v[base] += s.dataSize();
            v[base + 1] += s.heapSize();
            v[base + 2] += s.entries();
            v[9] += s.offHeapSize();
            v[10 + base / 3] += s.deletions();
        }
        return new MemStoreStats(v, pipelineSegments, uniqueness, throttle, pool);
    }
}
