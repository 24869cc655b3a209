package io.bellows.engine.internal.db;

import io.bellows.engine.Durability;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.wal.BatchAccess;
import io.bellows.engine.internal.wal.BatchCodec;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * Group commit. Writers queue under the engine lock; the writer at the head (the leader) makes room
 * ({@link StallController}), takes the queued batches of the same WAL class into one group, appends them
 * to the WAL as one record (one write, at most one force), inserts them into the MemStore and publishes
 * the group's last sequence, then wakes the group and the next leader. Only the leader touches the WAL
 * writer and switches MemStores.
 */
final class WriteQueue {
    /** Largest write group: big enough to amortize a sync, small enough to bound a follower's latency. */
    private static final long MAX_GROUP_BYTES = 1 << 20;
    private final EngineState state;
    private final EngineContext ctx;
    private final MemStore memstore;
    private final StallController stalls;
    private final WalRetention walRetention;
    @GuardedBy("state.lock")
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    /** Signalled when the writer queue empties, for close. */
    private final Condition drained;

    /** One queued write (or a forced MemStore switch when {@code batch} is null). */
    private static final class Writer {
        final WriteBatch batch;
        final Durability durability;
        final Condition cv;
        /** The switch close makes to flush unlogged writes: the one writer taken once the engine is closed. */
        final boolean atClose;
        boolean done;
        Throwable error;

        Writer(WriteBatch batch, Durability durability, Condition cv, boolean atClose) {
            this.batch = batch;
            this.durability = durability;
            this.cv = cv;
            this.atClose = atClose;
        }

        boolean logged() {
            return durability != Durability.NONE;
        }
    }

    WriteQueue(EngineState state, EngineContext ctx, StallController stalls, WalRetention walRetention) {
        this.state = state;
        this.ctx = ctx;
        this.memstore = ctx.memstore;
        this.stalls = stalls;
        this.walRetention = walRetention;
        this.drained = state.lock.newCondition();
    }

    /** Logs (unless {@code durability} is NONE) and applies a non-empty batch; returns when it is visible. */
    void write(WriteBatch batch, Durability durability) {
        run(new Writer(batch, durability, state.lock.newCondition(), false));
    }

    /** Switches the MemStore (if it holds data) to a snapshot scheduled for flushing, in queue order. */
    void switchMemStore() {
        run(new Writer(null, Durability.SYNC, state.lock.newCondition(), false));
    }

    /**
     * Close's switch, once the queue has drained: the MemStore holding unlogged writes becomes a snapshot
     * for the flush that makes them durable.
     */
    void switchMemStoreAtClose() {
        run(new Writer(null, Durability.SYNC, state.lock.newCondition(), true));
    }

    private void run(Writer w) {
        state.lock.lock();
        try {
            if (state.isClosed() && !w.atClose) {
                // Close has begun: it drains the writers queued before it and flushes what they wrote; a
                // write that comes later is refused rather than left out of that flush.
                throw new EngineClosedException("engine at " + ctx.dir + " is closed");
            }
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.cv.awaitUninterruptibly();
            }
            if (w.done) {
                rethrow(w.error);
                return;
            }
            List<Writer> group = new ArrayList<>();
            Throwable error = null;
            try {
                stalls.makeRoom(w.batch == null, w.atClose, w.batch == null ? 0 : BatchAccess.encodedLength(w.batch),
                        w.batch == null ? 0 : w.batch.count());
                if (w.batch != null) {
                    buildGroup(w, group);
                    writeGroup(group);
                }
            } catch (Throwable t) {
                error = t;
            }
            if (group.isEmpty()) {
                group.add(w);
            }
            for (Writer x : group) {
                Writer head = writers.pollFirst();
                assert head == x;
                x.done = true;
                x.error = error;
                if (x != w) {
                    x.cv.signal();
                }
            }
            Writer next = writers.peekFirst();
            if (next != null) {
                next.cv.signal();
            } else {
                drained.signalAll();
            }
            rethrow(error);
        } finally {
            state.lock.unlock();
        }
    }

    private static void rethrow(Throwable t) {
        if (t == null) {
            return;
        }
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        if (t instanceof IOException) {
            throw IoErrors.wrap("write failed", (IOException) t);
        }
        throw new IllegalStateException(t);
    }

    /** Takes queued writers after the leader with the same WAL class, up to the group size limit. */
    @GuardedBy("state.lock")
    private void buildGroup(Writer leader, List<Writer> group) {
        long bytes = 0;
        long entries = 0;
        for (Writer x : writers) {
            if (x.batch == null || x.logged() != leader.logged()) {
                break;
            }
            if (!group.isEmpty() && (bytes + BatchAccess.encodedLength(x.batch) > MAX_GROUP_BYTES
                    || !memstore.hasRoomFor(bytes + BatchAccess.encodedLength(x.batch), entries + x.batch.count()))) {
                break;
            }
            bytes += BatchAccess.encodedLength(x.batch);
            entries += x.batch.count();
            group.add(x);
        }
    }

    /** REQUIRES: lock held, caller is the leader. Releases the lock while doing I/O and inserting. */
    @GuardedBy("state.lock")
    private void writeGroup(List<Writer> group) throws IOException {
        boolean logged = group.get(0).logged();
        Wal wal = walRetention.wal();
        if (logged && (wal.needsRoll() || wal.size() >= memstore.logRollBytes())) {
            walRetention.roll();
        }
        long first = ctx.versions.lastSequence() + 1;
        long count = 0;
        long userBytes = 0;
        boolean sync = false;
        List<WriteBatch> batches = new ArrayList<>(group.size());
        for (Writer x : group) {
            batches.add(x.batch);
            count += x.batch.count();
            userBytes += BatchAccess.userBytes(x.batch);
            sync |= x.durability == Durability.SYNC;
        }
        if (first + count - 1 > InternalKeys.MAX_SEQUENCE) {
            throw new IllegalStateException("sequence numbers exhausted");
        }
        if (!logged) {
            walRetention.markUnlogged();
        }
        state.lock.unlock();
        // An interrupt during FileChannel I/O closes the channel; the caller's interrupt status is
        // restored afterwards instead of being allowed to break the WAL.
        boolean interrupted = Thread.interrupted();
        try {
            if (logged) {
                byte[] record = BatchCodec.encode(first, batches);
                wal.append(record, sync, first + count - 1);
                ctx.counters.walBytes.add(record.length);
            }
            insert(first, batches);
            ctx.counters.userBytes.add(userBytes);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            state.lock.lock();
            // Sequences of a failed group are used up too: its record may still surface in recovery.
            ctx.versions.setLastSequence(first + count - 1);
        }
    }

    /** Inserts the group's batches into the MemStore with consecutive sequences from {@code first}. */
    private void insert(long first, List<WriteBatch> batches) {
        long[] seq = {first};
        WriteBatch.Handler handler = new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                memstore.add(key, seq[0]++, InternalKeys.KIND_PUT, value);
            }

            @Override
            public void delete(byte[] key) {
                memstore.add(key, seq[0]++, InternalKeys.KIND_DELETE, null);
            }
        };
        for (WriteBatch b : batches) {
            b.forEach(handler);
        }
        memstore.endWrite();
    }

    /** REQUIRES: lock held. Wakes every queued writer so it sees that the engine is closing. */
    @GuardedBy("state.lock")
    void wakeAll() {
        for (Writer w : writers) {
            w.cv.signal();
        }
    }

    /** REQUIRES: lock held. Whether no writer is queued or writing. */
    @GuardedBy("state.lock")
    boolean isEmpty() {
        return writers.isEmpty();
    }

    /** REQUIRES: lock held. Waits up to {@code millis} for the queue to drain. */
    @GuardedBy("state.lock")
    void awaitDrained(long millis) throws InterruptedException {
        drained.awaitNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
