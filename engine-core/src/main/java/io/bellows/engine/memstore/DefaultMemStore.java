package io.bellows.engine.memstore;

import java.util.List;

/**
 * The baseline MemStore (in-memory policy NONE; HBase's DefaultMemStore): one mutable skiplist segment
 * takes every write; a flush turns it into the snapshot and starts a new one. Nothing is merged or
 * compacted in memory.
 *
 * <p>Thread safety: the segment pair is one immutable {@link State} published through a volatile
 * field, so a reader's view is always a consistent (active, snapshot) pair without locks. Only the
 * write leader changes the state.
 */
public final class DefaultMemStore implements MemStore {
    private static final class State {
        final SkipListSegment active;
        final SkipListSegment snapshot;
        final MemStoreView view;

        State(SkipListSegment active, SkipListSegment snapshot) {
            this.active = active;
            this.snapshot = snapshot;
            this.view = new MemStoreView(snapshot == null ? List.of(active) : List.of(active, snapshot), null);
        }
    }

    private final long flushSize;
    private volatile State state = new State(new SkipListSegment(), null);

    public DefaultMemStore(long flushSize) {
        this.flushSize = flushSize;
    }

    @Override
    public void add(byte[] key, long seq, int kind, byte[] value) {
        state.active.add(key, seq, kind, value);
    }

    @Override
    public MemStoreView view() {
        return state.view;
    }

    @Override
    public boolean shouldFlush() {
        return state.active.dataSize() >= flushSize;
    }

    @Override
    public boolean hasSnapshot() {
        return state.snapshot != null;
    }

    @Override
    public List<Segment> snapshot() {
        State s = state;
        if (s.snapshot != null) {
            throw new IllegalStateException("a snapshot is already pending");
        }
        state = new State(new SkipListSegment(), s.active);
        return List.of(s.active);
    }

    @Override
    public void clearSnapshot() {
        State s = state;
        state = new State(s.active, null);
    }

    @Override
    public boolean isActiveEmpty() {
        return state.active.entries() == 0;
    }

    @Override
    public long dataSize() {
        State s = state;
        return s.active.dataSize() + (s.snapshot == null ? 0 : s.snapshot.dataSize());
    }

    @Override
    public long heapSize() {
        State s = state;
        return s.active.heapSize() + (s.snapshot == null ? 0 : s.snapshot.heapSize());
    }

    @Override
    public long minSequence() {
        State s = state;
        return Math.min(s.active.minSequence(), s.snapshot == null ? Long.MAX_VALUE : s.snapshot.minSequence());
    }

    @Override
    public MemStoreStats stats() {
        State s = state;
        return MemStoreStats.of(s.view.segments(), 0, 1, 0);
    }

    @Override
    public void close() {
        state = new State(new SkipListSegment(), null);
    }
}
