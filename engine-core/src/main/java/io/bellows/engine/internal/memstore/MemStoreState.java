package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.internal.util.StripedPins;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One immutable configuration of a compacting MemStore: active segment, pipeline, snapshot. Readers
 * take the current state as one object, so they see every segment exactly once without locks (the
 * paper's active-then-pipeline-then-snapshot order is only needed when the three are read separately).
 *
 * <p>A state is reference-counted: being current is one reference, each open view one more. A state
 * holds one reference to the memory of each of its segments, given back when its count reaches zero,
 * so a chunk is recycled only when no current state and no open view lists a segment using it.
 */
final class MemStoreState {
    final MutableSegment active;
    final Pipeline pipeline;
    /** Segments being flushed to disk, newest first; empty when none. */
    final List<Segment> snapshot;
    final boolean snapshotPending;
    final MemStoreView view;
    /**
     * Whether some segment lives in recycled memory. Without any, nothing needs the count: readers
     * skip it, so the baseline's lookups touch no shared counter.
     */
    private final boolean counted;
    private final AtomicInteger refs = new AtomicInteger(1);
    /** Point reads' pins ({@link StripedPins}); null when nothing needs counting. */
    private final StripedPins pins;
    /** Set by whoever finds the state out of references and pins first: it alone gives the memory back. */
    private final AtomicBoolean released = new AtomicBoolean();

    /** REQUIRES: the caller holds references to every segment's memory (a pinned state, or ownership). */
    MemStoreState(MutableSegment active, Pipeline pipeline, List<Segment> snapshot, boolean snapshotPending) {
        this.active = active;
        this.pipeline = pipeline;
        this.snapshot = snapshot;
        this.snapshotPending = snapshotPending;
        List<Segment> all = new ArrayList<>(1 + pipeline.segments.size() + snapshot.size());
        all.add(active);
        all.addAll(pipeline.segments);
        all.addAll(snapshot);
        boolean anyMemory = false;
        for (Segment s : all) {
            for (SegmentMemory m : s.memory()) {
                m.retain();
                anyMemory = true;
            }
        }
        this.counted = anyMemory;
        this.pins = anyMemory ? new StripedPins() : null;
        this.view = new MemStoreView(Collections.unmodifiableList(all), anyMemory ? this::release : null,
                anyMemory ? this::unpin : null);
    }

    /** Pins the state unless it has already been given up entirely. */
    boolean tryRetain() {
        if (!counted) {
            return true;
        }
        while (true) {
            int n = refs.get();
            if (n <= 0) {
                return false;
            }
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void release() {
        if (!counted) {
            return;
        }
        int n = refs.decrementAndGet();
        if (n == 0) {
            releaseIfUnpinned();
        } else if (n < 0) {
            throw new IllegalStateException("MemStore state released more often than retained");
        }
    }

    /** Whether a point read must pin this state ({@link StateRef#pin}); without memory to recycle, none does. */
    boolean counted() {
        return counted;
    }

    void pin(int stripe) {
        pins.pin(stripe);
    }

    void unpin(int stripe) {
        pins.unpin(stripe);
        if (refs.get() == 0) {
            releaseIfUnpinned();
        }
    }

    private void releaseIfUnpinned() {
        if (pins.none() && released.compareAndSet(false, true)) {
            for (Segment s : view.segments()) {
                for (SegmentMemory m : s.memory()) {
                    m.release();
                }
            }
        }
    }

    long dataSize() {
        long sum = 0;
        for (Segment s : view.segments()) {
            sum += s.dataSize();
        }
        return sum;
    }

    long heapSize() {
        long sum = 0;
        for (Segment s : view.segments()) {
            sum += s.heapSize();
        }
        return sum;
    }

    /** Heap estimate plus off-heap bytes of every segment, the snapshot being flushed included. */
    long memory() {
        long sum = 0;
        for (Segment s : view.segments()) {
            sum += s.heapSize() + s.offHeapSize();
        }
        return sum;
    }

    /** {@link #memory()} without the snapshot: what a switch would hand to a flush. */
    long mutableMemory() {
        long sum = active.heapSize() + active.offHeapSize();
        for (Segment s : pipeline.segments) {
            sum += s.heapSize() + s.offHeapSize();
        }
        return sum;
    }

    /** Lowest sequence any segment holds, or Long.MAX_VALUE when all are empty. */
    long minSequence() {
        long min = Long.MAX_VALUE;
        for (Segment s : view.segments()) {
            min = Math.min(min, s.minSequence());
        }
        return min;
    }
}
