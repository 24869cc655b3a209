package io.bellows.engine.internal.memstore.spi;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Size and sequence range of a mutable segment, updated by its one writer and read by anyone. Kept
 * apart from the index because readers of sizes (flush triggers, stats) must not touch the skiplist.
 */
public final class SegmentCounters {
    private final LongAdder dataSize = new LongAdder();
    private final LongAdder entries = new LongAdder();
    private final LongAdder deletions = new LongAdder();
    private final LongAccumulator minSeq = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final AtomicLong maxSeq = new AtomicLong();

    /** Counts one added entry of {@code bytes} key and value bytes; {@code tombstone} for a delete. */
    public void add(long sequence, long bytes, boolean tombstone) {
        dataSize.add(bytes);
        entries.increment();
        if (tombstone) {
            deletions.increment();
        }
        minSeq.accumulate(sequence);
        maxSeq.accumulateAndGet(sequence, Math::max);
    }

    public long dataSize() {
        return dataSize.sum();
    }

    public long entries() {
        return entries.sum();
    }

    public long deletions() {
        return deletions.sum();
    }

    /** Lowest sequence added, or Long.MAX_VALUE when empty. */
    public long minSequence() {
        return minSeq.get();
    }

    /** Highest sequence added, or 0 when empty. */
    public long maxSequence() {
        return maxSeq.get();
    }
}
