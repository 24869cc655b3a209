package io.bellows.engine.internal.db;

import io.bellows.engine.Cursor;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.StripedPins;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads without locks: a MemStore view, then a version (pinned on the thread's stripe for point reads,
 * referenced for cursors, which may end on another thread), then the visible sequence
 * (its snapshot's, or the latest published), taken in that order so that a flush installing its table
 * before dropping the MemStore snapshot never hides data from a reader. Point reads probe the MemStore,
 * then the tables the scheme names; cursors merge both and hold the view and version until closed.
 */
final class ReadPath {
    /**
     * One lookup holder per thread: a get is not re-entered on its thread (nothing it calls reads the
     * engine), and the holder is released (its value reference dropped) before the get returns.
     */
    private static final ThreadLocal<Lookup> LOOKUPS = ThreadLocal.withInitial(Lookup::new);
    private final EngineState state;
    private final EngineContext ctx;
    private final CompactionScheduler compactions;
    /** The engine that snapshots belong to: a snapshot of another engine is refused. */
    private final Object owner;

    ReadPath(EngineState state, EngineContext ctx, CompactionScheduler compactions, Object owner) {
        this.state = state;
        this.ctx = ctx;
        this.compactions = compactions;
        this.owner = owner;
    }

    byte[] get(byte[] key, ReadOptions ro) {
        Lookup lk = LOOKUPS.get();
        try {
            return lookup(key, ro, lk, null, 0, null) < 0 ? null : lk.valueBuf;
        } finally {
            lk.release();
        }
    }

    int get(byte[] key, ByteBuffer dst, ReadOptions ro) {
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("the value buffer is read-only");
        }
        Lookup lk = LOOKUPS.get();
        try {
            return lookup(key, ro, lk, null, 0, dst);
        } finally {
            lk.release();
        }
    }

    int get(byte[] key, byte[] dst, int off, ReadOptions ro) {
        Objects.requireNonNull(dst, "dst");
        if (off < 0 || off > dst.length) {
            throw new IllegalArgumentException("offset " + off + " outside the buffer of " + dst.length + " bytes");
        }
        Lookup lk = LOOKUPS.get();
        try {
            return lookup(key, ro, lk, dst, off, null);
        } finally {
            lk.release();
        }
    }

    /**
     * The length of the live PUT of {@code key} visible to {@code ro}, or -1. Its value is copied while the
     * view and version still pin the memory it lies in: into {@code dst} from {@code off} (as much as
     * fits), into {@code buffer} ({@link Lookup#copyValueTo(ByteBuffer)}), or, with both null, into a new
     * array left in {@code lk.valueBuf}.
     */
    private int lookup(byte[] key, ReadOptions ro, Lookup lk, byte[] dst, int off, ByteBuffer buffer) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ro, "options");
        state.checkOpen();
        checkKey(key);
        // Pinned on this thread's stripe, not referenced: concurrent gets share no counter.
        int stripe = StripedPins.stripe();
        MemStoreView view = ctx.memstore.pinView(stripe);
        Version v = ctx.versions.pinCurrent(stripe);
        try {
            if (!find(view, v, key, readSequence(ro), ctx.tables, ro.fillCache(), lk)) {
                return -1;
            }
            if (dst != null) {
                return lk.copyValueTo(dst, off);
            }
            if (buffer != null) {
                return lk.copyValueTo(buffer);
            }
            lk.set(lk.sequence, lk.kind, lk.copyValue());
            return lk.valueLength;
        } catch (IOException e) {
            throw IoErrors.wrap("get failed", e);
        } finally {
            v.unpin(stripe);
            view.unpin(stripe);
        }
    }

    /**
     * The values of {@code keys}, looked up in key order in one view at one sequence, with every SSTable
     * block read at most once ({@link MemoTableSource}).
     */
    List<byte[]> multiGet(List<byte[]> keys, ReadOptions ro) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(ro, "options");
        state.checkOpen();
        Integer[] order = new Integer[keys.size()];
        for (int i = 0; i < order.length; i++) {
            checkKey(Objects.requireNonNull(keys.get(i), "key"));
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Bytes.compare(keys.get(a), keys.get(b)));
        byte[][] values = new byte[order.length][];
        Lookup lk = new Lookup();
        int stripe = StripedPins.stripe();
        MemStoreView view = ctx.memstore.pinView(stripe);
        Version v = ctx.versions.pinCurrent(stripe);
        try {
            long seq = readSequence(ro);
            MemoTableSource tables = new MemoTableSource(ctx.tables);
            for (Integer i : order) {
                if (find(view, v, keys.get(i), seq, tables, ro.fillCache(), lk)) {
                    values[i] = lk.copyValue();
                }
            }
        } catch (IOException e) {
            throw IoErrors.wrap("multiGet failed", e);
        } finally {
            v.unpin(stripe);
            view.unpin(stripe);
        }
        return Arrays.asList(values);
    }

    private static void checkKey(byte[] key) {
        if (key.length > InternalKeys.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key length " + key.length + " exceeds the limit of "
                    + InternalKeys.MAX_KEY_LENGTH + " bytes");
        }
    }

    /** Whether {@code key} has a live PUT at {@code seq} in the view or the version; it is then in {@code lk}. */
    private boolean find(MemStoreView view, Version v, byte[] key, long seq, TableSource tables, boolean fillCache,
            Lookup lk) throws IOException {
        ctx.counters.gets.increment();
        lk.compactionDue = false;
        if (view.get(key, seq, lk)) {
            return lk.kind == InternalKeys.KIND_PUT;
        }
        boolean found = ctx.scheme.get(v, key, seq, tables, fillCache, lk, ctx.counters);
        if (lk.compactionDue) {
            compactions.scheduleLocked();
        }
        return found && lk.kind == InternalKeys.KIND_PUT;
    }

    /** The sequence a read sees: its snapshot's, or the latest published (read after taking the view). */
    private long readSequence(ReadOptions ro) {
        Snapshot s = ro.snapshot();
        if (s == null) {
            return ctx.versions.lastSequence();
        }
        if (!(s instanceof SnapshotImpl) || ((SnapshotImpl) s).owner() != owner) {
            throw new IllegalArgumentException("snapshot " + s + " does not belong to this engine");
        }
        return ((SnapshotImpl) s).checkedSequence();
    }

    Snapshot snapshot() {
        state.checkOpen();
        synchronized (ctx.snapshots) {
            long seq = ctx.versions.lastSequence();
            ctx.snapshots.add(seq);
            return new SnapshotImpl(seq, owner, ctx.snapshots);
        }
    }

    Cursor cursor(ReadOptions ro) {
        Objects.requireNonNull(ro, "options");
        state.checkOpen();
        MemStoreView view = ctx.memstore.view();
        Version v = ctx.versions.acquireCurrent();
        try {
            long seq = readSequence(ro);
            List<InternalIterator> sources = new ArrayList<>(view.iterators());
            sources.addAll(ctx.scheme.cursorSources(v, ctx.tables, ro.fillCache()));
            return new DbCursor(this, sources, view, v, seq, ro.lowerBound(), ro.upperBound());
        } catch (IOException e) {
            v.release();
            view.close();
            throw IoErrors.wrap("cursor failed", e);
        } catch (RuntimeException e) {
            v.release();
            view.close();
            throw e;
        }
    }

    /** A cursor seek, for the scheme's seek-based compaction; locks only when a compaction becomes due. */
    void cursorSeeked(byte[] key) {
        if (ctx.scheme.onSeek(key, ctx.versions.lastSequence())) {
            compactions.scheduleLocked();
        }
    }

    void checkOpen() {
        state.checkOpen();
    }
}
