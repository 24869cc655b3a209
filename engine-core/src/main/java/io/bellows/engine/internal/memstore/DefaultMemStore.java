package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import java.util.List;

/**
 * The baseline MemStore (in-memory policy NONE; HBase's DefaultMemStore): one mutable skiplist segment
 * takes every write; a flush turns it into the snapshot and starts a new one. Nothing is merged or
 * compacted in memory.
 *
 * <p>Thread safety: the segment pair is one immutable, reference-counted {@link MemStoreState}, so a
 * reader's view is always a consistent (active, snapshot) pair without locks, and memory a layout
 * recycles (off-heap chunks) outlives every view that reads it. Only the write leader and the flush
 * thread change the state.
 */
final class DefaultMemStore implements MemStore {
    private final long flushSize;
    private final SegmentLayout layout;
    private final StateRef state;

    /** @param layout makes the segments; the MemStore closes it */
    DefaultMemStore(long flushSize, SegmentLayout layout) {
        this.flushSize = flushSize;
        this.layout = layout;
        MutableSegment active = layout.newMutable();
        this.state = new StateRef(new MemStoreState(active, Pipeline.EMPTY, List.of(), false));
        StateRef.releaseCreator(active);
    }

    @Override
    public void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq,
            int kind) {
        state.get().active.add(keyBuf, keyOff, keyLen, valueBuf, valueOff, valueLen, seq, kind);
    }

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
        return state.get().active.dataSize() >= flushSize;
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
                return new MemStoreState(next, Pipeline.EMPTY, List.of(cur.active), true);
            });
        } finally {
            StateRef.releaseCreator(next);
        }
        return s.snapshot;
    }

    @Override
    public void clearSnapshot() {
        state.install(cur -> new MemStoreState(cur.active, Pipeline.EMPTY, List.of(), false));
    }

    @Override
    public boolean isActiveEmpty() {
        return state.get().active.entries() == 0;
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
    public MemStoreStats stats() {
        return MemStoreStats.of(state.get().view.segments(), 0, 1, 0, layout.poolStats());
    }

    @Override
    public void close() {
        MutableSegment empty = layout.newMutable();
        state.install(cur -> new MemStoreState(empty, Pipeline.EMPTY, List.of(), false));
        StateRef.releaseCreator(empty);
        layout.close();
    }
}
