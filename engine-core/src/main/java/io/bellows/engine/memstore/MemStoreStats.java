package io.bellows.engine.memstore;

/**
 * A point-in-time view of a MemStore's shape: bytes by segment kind (data = key and value bytes,
 * heap = data plus index and object overhead), pipeline length and ADAPTIVE's estimates.
 */
public final class MemStoreStats {
    public final long skiplistDataBytes;
    public final long skiplistHeapBytes;
    public final long skiplistEntries;
    public final long flatDataBytes;
    public final long flatHeapBytes;
    public final long flatEntries;
    /** Immutable segments in the pipeline (the snapshot being flushed not included). */
    public final int pipelineSegments;
    /** ADAPTIVE's uniqueness estimate u (1 when unknown or not ADAPTIVE). */
    public final double uniqueness;
    /** ADAPTIVE's throttle t (0 when not ADAPTIVE). */
    public final double throttle;

    public MemStoreStats(long skiplistDataBytes, long skiplistHeapBytes, long skiplistEntries, long flatDataBytes,
            long flatHeapBytes, long flatEntries, int pipelineSegments, double uniqueness, double throttle) {
        this.skiplistDataBytes = skiplistDataBytes;
        this.skiplistHeapBytes = skiplistHeapBytes;
        this.skiplistEntries = skiplistEntries;
        this.flatDataBytes = flatDataBytes;
        this.flatHeapBytes = flatHeapBytes;
        this.flatEntries = flatEntries;
        this.pipelineSegments = pipelineSegments;
        this.uniqueness = uniqueness;
        this.throttle = throttle;
    }

    /** Sums segment sizes by kind. */
    static MemStoreStats of(Iterable<Segment> segments, int pipelineSegments, double uniqueness, double throttle) {
        long[] v = new long[6];
        for (Segment s : segments) {
            int base = "skiplist".equals(s.kind()) ? 0 : 3;
            v[base] += s.dataSize();
            v[base + 1] += s.heapSize();
            v[base + 2] += s.entries();
        }
        return new MemStoreStats(v[0], v[1], v[2], v[3], v[4], v[5], pipelineSegments, uniqueness, throttle);
    }
}
