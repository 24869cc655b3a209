package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.table.BloomFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * An immutable list of segments, newest first, as one reader sees the MemStore. Because a key's
 * versions in a newer segment are all newer than those in an older segment, a point lookup stops at
 * the first segment that has the key.
 */
public final class MemStoreView implements AutoCloseable {
    private final List<Segment> segments;
    private final Runnable onClose;
    private final IntConsumer onUnpin;

    /**
     * @param onClose gives back the reference {@link MemStore#view()} took; null when nothing was taken
     * @param onUnpin drops the pin {@link MemStore#pinView} took on a stripe; null when nothing was taken
     */
    public MemStoreView(List<Segment> segments, Runnable onClose, IntConsumer onUnpin) {
        this.segments = segments;
        this.onClose = onClose;
        this.onUnpin = onUnpin;
    }

    public boolean get(byte[] key, long seq, Lookup out) {
        long hash = 0;
        boolean hashed = false;
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            boolean found;
            if (s instanceof FlatSegment) {
                // One hash per get serves the filters of every flat segment of the pipeline.
                if (!hashed) {
                    hash = BloomFilter.hash(key);
                    hashed = true;
                }
                found = ((FlatSegment) s).get(key, hash, seq, out);
            } else {
                found = s.get(key, seq, out);
            }
            if (found) {
                return true;
            }
        }
        return false;
    }

    /** One iterator per segment, newest first. */
    public List<InternalIterator> iterators() {
        List<InternalIterator> its = new ArrayList<>(segments.size());
        for (Segment s : segments) {
            its.add(s.iterator());
        }
        return its;
    }

    public List<Segment> segments() {
        return segments;
    }

    /** Ends a view of {@link MemStore#view()}. */
    @Override
    public void close() {
        if (onClose != null) {
            onClose.run();
        }
    }

    /** Ends a view of {@link MemStore#pinView}, on the thread that took it, with its {@code stripe}. */
    public void unpin(int stripe) {
        if (onUnpin != null) {
            onUnpin.accept(stripe);
        }
    }
}
