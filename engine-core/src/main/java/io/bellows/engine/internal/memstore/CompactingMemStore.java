package io.bellows.engine.internal.memstore;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLimitException;
import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accordion's compacting MemStore (paper §3; HBase's CompactingMemStore): a small mutable skiplist
 * segment takes writes; when it holds a fraction A of the flush size, an in-memory flush pushes it
 * into a pipeline of immutable segments and a background run flattens, merges or compacts the
 * pipeline by policy. A disk flush takes the pipeline and the active segment together as its snapshot.
 *
 * <p>Segments come from a {@link SegmentLayout}, so the policies, pipeline and reference counting are
 * the same for the on-heap and off-heap layouts.
 *
 * <p>Thread safety: the whole configuration is one immutable {@link MemStoreState} behind an atomic
 * reference; every change builds a new state from a pinned copy of the current one and installs it
 * by compare-and-set, so readers never lock and never see a segment twice or not at all. The writer
 * only pushes (constant time); flattening and compaction run on the context's executor, at most one run
 * at a time, and give up when a disk flush changed the pipeline meanwhile.
 */
final class CompactingMemStore implements MemStore {
    private static final Logger LOG = LoggerFactory.getLogger(CompactingMemStore.class);

    private final InMemoryCompaction policy;
    private final long flushSize;
    private final long inMemoryFlushSize;
    private final int pipelineLimit;
    private final double threshold;
    private final SegmentLayout layout;
    private final MemStoreContext context;
    private final MemStoreCounters counters;
    private final StateRef state;
    private final AtomicBoolean compactionRunning = new AtomicBoolean();
    private final SplittableRandom random = new SplittableRandom();
    /** ADAPTIVE's u and t; written by the writer (push, snapshot) and the compactor, read by both. */
    private volatile double uniqueness = 1;
    private volatile double throttle = InMemoryPolicy.INITIAL_THROTTLE;
    private volatile boolean closed;
    /** Whether in-memory compactions count the versions they drop (a scheme asked for update counts). */
    private volatile boolean countUpdates;
    private final DroppedVersions dropped = new DroppedVersions();
    /** Runs just before a compaction installs its result; tests use it to force interleavings. */
    volatile Runnable beforeSwap;

    /**
     * @param flushSize data bytes (active plus pipeline) at which a disk flush is due
     * @param activeFraction A: the active segment is pushed at this fraction of {@code flushSize}
     * @param pipelineLimit S: BASIC and ADAPTIVE merge when the pipeline holds more segments
     * @param threshold R: ADAPTIVE may compact when the redundant fraction 1 - u exceeds it
     * @param layout makes and builds the segments; the MemStore closes it
     */
    CompactingMemStore(InMemoryCompaction policy, long flushSize, double activeFraction, int pipelineLimit,
            double threshold, SegmentLayout layout, MemStoreContext context) {
        if (policy == InMemoryCompaction.NONE) {
            throw new IllegalArgumentException("policy NONE is the DefaultMemStore");
        }
        this.policy = policy;
        this.flushSize = flushSize;
        this.inMemoryFlushSize = Math.max(1, (long) (flushSize * activeFraction));
        this.pipelineLimit = pipelineLimit;
        this.threshold = threshold;
        this.layout = layout;
        this.context = context;
        this.counters = context.counters();
        MutableSegment active = layout.newMutable();
        this.state = new StateRef(new MemStoreState(active, Pipeline.EMPTY, List.of(), false));
        StateRef.releaseCreator(active);
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq,
            int kind) {
        // Only this (single) writer replaces the active segment, so it stays current while we add to it.
        state.get().active.add(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, seq, kind);
    }

    /** Pushes a full active segment; never inside a write group, so groups stay whole per segment. */
    @Override
    public void endWrite() {
        if (state.get().active.dataSize() >= inMemoryFlushSize) {
            inMemoryFlush();
        }
    }

    /** Makes the active segment immutable: pushes it at the pipeline's head and starts a compaction run. */
    private void inMemoryFlush() {
        MutableSegment next = layout.newMutable();
        state.install(cur -> new MemStoreState(next, cur.pipeline.pushHead(cur.active), cur.snapshot,
                cur.snapshotPending));
        StateRef.releaseCreator(next);
        counters.inMemoryFlushes.increment();
        throttle = Math.min(1, throttle * InMemoryPolicy.THROTTLE_GROWTH);
        scheduleCompaction();
    }

    // ------------------------------------------------------------------ in-memory compaction

    private void scheduleCompaction() {
        if (closed || !compactionRunning.compareAndSet(false, true)) {
            return;
        }
        try {
            context.executor().execute(this::compactionRun);
        } catch (RejectedExecutionException e) {
            compactionRunning.set(false);
        }
    }

    /**
     * Works until the pipeline needs nothing more; then checks once more after clearing the running flag,
     * so segments pushed during the run are never left behind (HBase starts nothing when they pile up).
     * A failed run is not retried at once (it would most likely fail again, in a busy loop): the next
     * in-memory flush starts the next one.
     */
    private void compactionRun() {
        boolean failed = false;
        try {
            while (!closed && step()) {
                // each step is one flatten, merge or compaction
            }
        } catch (MemoryLimitException e) {
            failed = true;
            counters.aborted.increment();
            LOG.debug("in-memory compaction given up until the next in-memory flush: {}", e.getMessage());
        } catch (RuntimeException | Error e) {
            failed = true;
            if (closed) {
                // close() does not wait for a run; one that finds the memory closed under it is moot.
                LOG.debug("in-memory compaction stopped by close: {}", e.toString());
            } else {
                LOG.error("in-memory compaction failed; the pipeline is left as it was until the next in-memory flush",
                        e);
            }
        } finally {
            compactionRunning.set(false);
        }
        if (!failed && !closed && pendingWork(state.get())) {
            scheduleCompaction();
        }
    }

    private boolean pendingWork(MemStoreState s) {
        return decide(s.pipeline) != InMemoryPolicy.Action.NONE;
    }

    private InMemoryPolicy.Action decide(Pipeline p) {
        boolean unflattened = false;
        for (Segment s : p.segments) {
            unflattened |= s instanceof MutableSegment;
        }
        double draw = policy == InMemoryCompaction.ADAPTIVE ? random.nextDouble() : 0;
        return InMemoryPolicy.decide(policy, p.segments.size(), unflattened, pipelineLimit, uniqueness, throttle,
                threshold, draw);
    }

    /** One flatten, merge or compaction; false when there was nothing to do. */
    private boolean step() {
        MemStoreState pinned = state.acquire();
        try {
            Pipeline p = pinned.pipeline;
            InMemoryPolicy.Action action = decide(p);
            switch (action) {
                case NONE:
                    return false;
                case FLATTEN:
                    flatten(p);
                    return true;
                case MERGE:
                    merge(p);
                    return true;
                case COMPACT:
                    compact(p);
                    return true;
                default:
                    throw new IllegalStateException("unknown action " + action);
            }
        } finally {
            pinned.release();
        }
    }

    private void flatten(Pipeline p) {
        Segment oldest = null;
        for (Segment s : p.segments) {
            if (s instanceof MutableSegment) {
                oldest = s;
            }
        }
        ImmutableSegment flat = layout.flatten(oldest);
        try {
            Segment target = oldest;
            if (swap(cur -> cur.pipeline.replace(target, flat, p.version))) {
                counters.flattens.increment();
            }
        } finally {
            StateRef.releaseCreator(flat);
        }
    }

    private void merge(Pipeline p) {
        ImmutableSegment merged = layout.merge(p.segments);
        try {
            if (countUpdates) {
                dropped.merged(p.segments, merged);
            }
            if (swap(cur -> cur.pipeline.replaceTail(p.segments, merged, p.version))) {
                counters.merges.increment();
                uniqueness = uniqueness(merged);
            } else {
                dropped.discard(merged);
            }
        } finally {
            StateRef.releaseCreator(merged);
        }
    }

    private void compact(Pipeline p) {
        // Published sequence first: a snapshot missing from the list read after it is at or above it.
        long published = context.publishedSequence();
        long[] snapshots = context.snapshotSequences();
        if (state.get().pipeline.version != p.version) {
            counters.aborted.increment();
            return;
        }
        boolean counting = countUpdates;
        Retention retention = new Retention(snapshots, published, counting);
        Compacted c = layout.compact(p.segments, retention);
        ImmutableSegment seg = c.segment();
        try {
            if (counting) {
                dropped.compacted(p.segments, seg, retention.dropsAfterKept());
            }
            if (!swap(cur -> cur.pipeline.replaceTail(p.segments, seg, p.version))) {
                dropped.discard(seg);
            } else {
                counters.compactions.increment();
                counters.cellsEliminated.add(c.cellsEliminated());
                counters.bytesEliminated.add(c.bytesEliminated());
                uniqueness = uniqueness(seg);
                if (c.cellsEliminated() > 0) {
                    context.minSequenceAdvanced();
                }
            }
        } finally {
            StateRef.releaseCreator(seg);
        }
    }

    @Override
    public void countUpdates() {
        countUpdates = true;
    }

    @Override
    public Map<ByteBuffer, Integer> droppedVersions(List<Segment> segments) {
        return dropped.union(segments);
    }

    private static double uniqueness(ImmutableSegment s) {
        return s.entries() == 0 ? 1 : (double) s.uniqueKeys() / s.entries();
    }

    /** Installs a new pipeline unless a disk flush changed it since it was read; false if aborted. */
    private boolean swap(Function<MemStoreState, Pipeline> change) {
        Runnable hook = beforeSwap;
        if (hook != null) {
            hook.run();
        }
        MemStoreState installed = state.install(cur -> {
            Pipeline next = change.apply(cur);
            return next == null ? null : new MemStoreState(cur.active, next, cur.snapshot, cur.snapshotPending);
        });
        if (installed == null) {
            counters.aborted.increment();
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------------ MemStore

    @Override
    public MemStoreView view() {
        return state.acquire().view;
    }

    @Override
    public MemStoreView pinView(int stripe) {
        return state.pin(stripe).view;
    }

    @Override
    public boolean hasRoomFor(long bytes, long entries) {
        return layout.hasRoomFor(bytes, entries);
    }

    @Override
    public boolean canEverHold(long bytes, long entries) {
        return layout.canEverHold(bytes, entries);
    }

    @Override
    public long memoryLimit() {
        return layout.memoryLimit();
    }

    @Override
    public boolean shouldFlush() {
        MemStoreState s = state.get();
        long data = s.active.dataSize();
        for (Segment seg : s.pipeline.segments) {
            data += seg.dataSize();
        }
        return data >= flushSize;
    }

    @Override
    public boolean hasSnapshot() {
        return state.get().snapshotPending;
    }

    @Override
    public List<Segment> snapshot() {
        MutableSegment next = layout.newMutable();
        MemStoreState s;
        try {
            s = state.install(cur -> {
                if (cur.snapshotPending) {
                    throw new IllegalStateException("a snapshot is already pending");
                }
                List<Segment> snap = new ArrayList<>(1 + cur.pipeline.segments.size());
                if (cur.active.entries() > 0) {
                    snap.add(cur.active);
                }
                snap.addAll(cur.pipeline.segments);
                return new MemStoreState(next, cur.pipeline.cleared(), List.copyOf(snap), true);
            });
        } finally {
            StateRef.releaseCreator(next);
        }
        throttle = InMemoryPolicy.INITIAL_THROTTLE;
        uniqueness = 1;
        return s.snapshot;
    }

    @Override
    public void clearSnapshot() {
        state.install(cur -> new MemStoreState(cur.active, cur.pipeline, List.of(), false));
    }

    @Override
    public boolean isActiveEmpty() {
        MemStoreState s = state.get();
        return s.active.entries() == 0 && s.pipeline.segments.isEmpty();
    }

    @Override
    public long dataSize() {
        return state.get().dataSize();
    }

    @Override
    public long heapSize() {
        return state.get().heapSize();
    }

    @Override
    public void reportMemory(MemStoreBudget.Member member) {
        MemStoreState s = state.get();
        member.report(s.memory(), s.mutableMemory());
    }

    @Override
    public long minSequence() {
        return state.get().minSequence();
    }

    @Override
    public long logRollBytes() {
        // Small enough that dropped versions free logs well before the next disk flush, large enough
        // that a roll (two forces) is rare next to the writes it covers.
        return Math.max(4096, flushSize / 8);
    }

    @Override
    public MemStoreStats stats() {
        MemStoreState s = state.get();
        return MemStoreStats.of(s.view.segments(), s.pipeline.segments.size(), uniqueness,
                policy == InMemoryCompaction.ADAPTIVE ? throttle : 0, layout.poolStats());
    }

    /** The current pipeline (tests observe the policies through it). */
    Pipeline pipeline() {
        return state.get().pipeline;
    }

    @Override
    public void close() {
        closed = true;
        // A new pipeline version makes a compaction still running give up; open views keep their states.
        MutableSegment empty = layout.newMutable();
        state.install(cur -> new MemStoreState(empty, cur.pipeline.cleared(), List.of(), false));
        StateRef.releaseCreator(empty);
        layout.close();
    }
}
