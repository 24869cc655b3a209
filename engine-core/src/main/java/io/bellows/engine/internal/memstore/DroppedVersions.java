package io.bellows.engine.internal.memstore;

import com.carrotsearch.hppc.IntIntHashMap;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.memstore.spi.Segment;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The versions in-memory compactions dropped, by key, for each immutable segment that has any: the
 * compacting MemStore as an update counter (TRIAD-MEM). A key's update count is the number of its
 * versions still in the segments plus the versions compactions dropped from them; merges carry the
 * inputs' counts over, compactions add theirs to the survivors'. Kept per segment (weakly, so a segment
 * no state holds any more takes its counts with it), never per MemStore generation: a compaction that
 * loses its race with a disk flush then cannot leak its counts into the next generation.
 */
final class DroppedVersions {
    private final Map<Segment, Map<ByteBuffer, Integer>> bySegment = Collections.synchronizedMap(new WeakHashMap<>());

    /** Records what merging {@code inputs} into {@code merged} carries over (nothing is dropped). */
    void merged(List<Segment> inputs, Segment merged) {
        Map<ByteBuffer, Integer> sum = union(inputs);
        if (!sum.isEmpty()) {
            bySegment.put(merged, sum);
        }
    }

    /**
     * Records the counts of {@code out}, compacted from {@code inputs}: the inputs' counts plus the versions
     * {@code dropsAfterKept} (from the compaction's {@code Retention}) attributes to each kept cell.
     */
    void compacted(List<Segment> inputs, Segment out, IntIntHashMap dropsAfterKept) {
        Map<ByteBuffer, Integer> sum = union(inputs);
        if (!dropsAfterKept.isEmpty()) {
            InternalIterator it = out.iterator();
            try {
                int i = 0;
                for (it.seekToFirst(); it.isValid(); it.next(), i++) {
                    int d = dropsAfterKept.get(i);
                    if (d > 0) {
                        sum.merge(ByteBuffer.wrap(it.key()), d, Integer::sum);
                    }
                }
            } finally {
                it.close();
            }
        }
        if (!sum.isEmpty()) {
            bySegment.put(out, sum);
        }
    }

    /** Forgets {@code s}, whose compaction or merge was not installed. */
    void discard(Segment s) {
        bySegment.remove(s);
    }

    /** The dropped versions of {@code segments} together, by key (a read-only view may be shared). */
    Map<ByteBuffer, Integer> union(List<Segment> segments) {
        Map<ByteBuffer, Integer> sum = new HashMap<>();
        for (Segment s : segments) {
            Map<ByteBuffer, Integer> m = bySegment.get(s);
            if (m != null) {
                m.forEach((k, v) -> sum.merge(k, v, Integer::sum));
            }
        }
        return sum;
    }
}
