package io.bellows.engine.internal.db;

import io.bellows.engine.Durability;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreBudget;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.wal.BatchAccess;
import io.bellows.engine.internal.wal.BatchCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit. Writers queue under the engine lock; the writer at the head (the leader) makes room
 * ({@link StallController}), takes the queued batches of the same WAL class into one group, appends them
 * to the WAL as one record (one write, at most one force), inserts them into the MemStore and publishes
 * the group's last sequence, then hands leadership to the next queued writer and wakes the group. Only
 * the leader touches the WAL writer and switches MemStores.
 *
 * <p>Nothing is copied on the way but into the MemStore: a batch's buffer already is a WAL record body
 * (LevelDB's {@code rep_}), so a group of one is appended as it is, and a larger group is encoded into
 * one buffer the leaders reuse; the MemStore reads the operations in place. A writer waits by parking on
 * its own {@link Writer} (reused by its thread), not on a condition of the engine lock, so a woken writer
 * returns without taking the lock again.
 *
 * <p>SYNC writers share forces: a SYNC leader first waits briefly for the writers of the group before
 * it to queue again ({@link #awaitFollowers}), as RocksDB's write-group leader gives followers a moment
 * to join; measured with 16 writers, a force then covered about 15.9 writes instead of 13.0 (10.5 with
 * the next leader taking its group at once), see docs/benchmarks.md.
 */
final class WriteQueue {
    private static final Logger LOG = LoggerFactory.getLogger(WriteQueue.class);
    /** Largest write group: big enough to amortize a sync, small enough to bound a follower's latency. */
    private static final long MAX_GROUP_BYTES = 1 << 20;
    /**
     * Capacity up to which a thread keeps its put/delete batch for the next call; a larger one (a big
     * value) is dropped after use, so an idle thread does not pin it.
     */
    private static final int MAX_KEPT_SCRATCH = 64 << 10;
    /** Size the group record buffer grows to ahead of need (it never shrinks). */
    private static final int MAX_KEPT_GROUP_RECORD = (int) MAX_GROUP_BYTES + BatchCodec.HEADER_LENGTH;
    /** Polls of its state a writer makes before it parks: a handoff often lands within them. */
    private static final int SPINS = 64;
    /** Upper bound of a SYNC leader's wait for followers (otherwise half a force), whatever forces take. */
    private static final long MAX_FOLLOWER_WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private static final int WAITING = 0;
    private static final int LEADER = 1;
    private static final int DONE = 2;

    private final EngineState state;
    private final EngineContext ctx;
    private final MemStore memstore;
    private final StallController stalls;
    private final WalRetention walRetention;
    /** Each thread's writer, reused by its writes (a new one only if the thread's is in use). */
    private final ThreadLocal<Writer> threadWriter = ThreadLocal.withInitial(Writer::new);
    /** Oldest queued writer (the leader, once it runs), and the newest. */
    @GuardedBy("state.lock")
    private Writer head;
    @GuardedBy("state.lock")
    private Writer tail;
    /** A switch the shared MemStore budget asked for while writers were queued: the leader makes it after its group. */
    @GuardedBy("state.lock")
    private boolean budgetSwitchDue;
    /** Writers queued (the running leader included); written under the lock, read by a waiting leader. */
    private volatile int queued;
    /**
     * Writers the next SYNC leader expects to queue: the group just written (its writers are likely to
     * write again at once) plus those already waiting. Leaders' alone (passed on with leadership).
     */
    private int expectedWriters;
    /** Recent duration of a WAL append with force (moving average); leaders' alone. */
    private long syncNanos;
    /** Signalled when the writer queue empties, for close. */
    private final Condition drained;
    /** The current group's batches and record buffer: the leader's alone, reused by each leader in turn. */
    private final ArrayList<WriteBatch> groupBatches = new ArrayList<>();
    private byte[] groupRecord;
    /** Inserts one operation, read in place from its batch, into the MemStore. */
    private final BatchCodec.SliceVisitor inserter;

    /** One queued write (or a forced MemStore switch when {@code batch} is null); reused by its thread. */
    private static final class Writer {
        final Thread thread = Thread.currentThread();
        /** The thread's batch for single puts and deletes, kept between calls. */
        WriteBatch scratch;
        /** Whether the thread is in a write with this writer (set and read by the thread only). */
        boolean inUse;
        WriteBatch batch;
        Durability durability;
        /** The switch close makes to flush unlogged writes: the one writer taken once the engine is closed. */
        boolean atClose;
        @GuardedBy("state.lock")
        Writer next;
        /** WAITING until the writer leads its group or its group's leader has written it. */
        volatile int phase;
        /** Set by the leader before it publishes {@code DONE}. */
        Throwable error;

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
        MemStore m = ctx.memstore;
        this.inserter = (seq, kind, buf, keyOff, keyLen, valueOff, valueLen) -> m.add(buf, keyOff, keyLen,
                kind == InternalKeys.KIND_PUT ? buf : null, valueOff, valueLen, seq, kind);
    }

    /**
     * An empty batch for one put or delete of the calling thread: the thread's own, reused from call to
     * call, so a single put allocates no batch. It is the caller's until its {@link #write} returns.
     */
    WriteBatch scratchBatch() {
        Writer w = threadWriter.get();
        if (w.inUse) {
            return new WriteBatch();
        }
        if (w.scratch == null || BatchAccess.buffer(w.scratch).length > MAX_KEPT_SCRATCH) {
            w.scratch = new WriteBatch();
        }
        return w.scratch.clear();
    }

    /** Logs (unless {@code durability} is NONE) and applies a non-empty batch; returns when it is visible. */
    void write(WriteBatch batch, Durability durability) {
        run(batch, durability, false);
    }

    /** Switches the MemStore (if it holds data) to a snapshot scheduled for flushing, in queue order. */
    void switchMemStore() {
        run(null, Durability.SYNC, false);
    }

    /**
     * Close's switch, once the queue has drained: the MemStore holding unlogged writes becomes a snapshot
     * for the flush that makes them durable.
     */
    void switchMemStoreAtClose() {
        run(null, Durability.SYNC, true);
    }

    /**
     * The switch a shared MemStore budget asks for, without waiting for writers: made here if none is
     * queued (under the lock with an empty queue no one leads, so this thread acts as the leader), else
     * left to the leader at the end of its group ({@link #budgetSwitchDue}).
     */
    MemStoreBudget.Answer switchForBudget() {
        state.lock.lock();
        try {
            if (state.isClosed()) {
                return MemStoreBudget.Answer.REFUSED;
            }
            if (head != null) {
                budgetSwitchDue = true;
                return MemStoreBudget.Answer.LATER;
            }
            budgetSwitchDue = false;
            boolean switched = stalls.switchForBudget();
            ctx.budget.report();
            return switched ? MemStoreBudget.Answer.SWITCHED : MemStoreBudget.Answer.REFUSED;
        } catch (IOException e) {
            throw IoErrors.wrap("switching the MemStore for the shared budget failed", e);
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * REQUIRES: lock held, leader. Makes the switch the budget asked for while this group ran (it is the
     * group's leader that ends it, so a request is never left waiting for a later writer). A failure is
     * the switch's, not the group's: it is logged, and the next switch the MemStore needs meets it again.
     */
    @GuardedBy("state.lock")
    private void switchForBudgetIfDue() {
        if (!budgetSwitchDue) {
            return;
        }
        budgetSwitchDue = false;
        try {
            stalls.switchForBudget();
        } catch (IOException | RuntimeException e) {
            LOG.warn("the switch the shared MemStore budget asked for failed", e);
        }
    }

    private void run(WriteBatch batch, Durability durability, boolean atClose) {
        Writer w = threadWriter.get();
        if (w.inUse) {
            w = new Writer();
        }
        w.inUse = true;
        w.batch = batch;
        w.durability = durability;
        w.atClose = atClose;
        w.error = null;
        w.next = null;
        w.phase = WAITING;
        try {
            if (enqueue(w)) {
                awaitTurn(w);
                if (w.phase == DONE) {
                    rethrow(w.error);
                    return;
                }
            }
            lead(w);
        } finally {
            w.batch = null;
            if (w.scratch != null && BatchAccess.buffer(w.scratch).length > MAX_KEPT_SCRATCH) {
                w.scratch = null;
            }
            w.inUse = false;
        }
    }

    /** Queues {@code w}; returns whether it must wait (false: it leads at once). */
    private boolean enqueue(Writer w) {
        state.lock.lock();
        try {
            if (state.isClosed() && !w.atClose) {
                // Close has begun: it drains the writers queued before it and flushes what they wrote; a
                // write that comes later is refused rather than left out of that flush.
                throw new EngineClosedException("engine at " + ctx.dir + " is closed");
            }
            queued++;
            if (tail == null) {
                head = w;
                tail = w;
                return false;
            }
            tail.next = w;
            tail = w;
            return true;
        } finally {
            state.lock.unlock();
        }
    }

    /** Waits, without the lock, until {@code w} leads or was written by a leader. Uninterruptible. */
    private static void awaitTurn(Writer w) {
        for (int i = 0; i < SPINS && w.phase == WAITING; i++) {
            Thread.onSpinWait();
        }
        boolean interrupted = false;
        while (w.phase == WAITING) {
            LockSupport.park(w);
            // park returns at once while the interrupt flag is set: clear it, restore it on the way out.
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Before a SYNC group: the writers the last group woke need a moment (and the CPU, which yielding
     * gives them) to queue their next writes; a leader that took its group at once would leave them
     * for the force after. So the leader waits until as many writers queue as were active around the
     * last group, for at most a fraction of one force: the writers that make it in share this one.
     * A lone writer never waits (it expects only itself).
     */
    private void awaitFollowers() {
        int expected = expectedWriters;
        if (expected <= 1 || queued >= expected) {
            return;
        }
        long deadline = System.nanoTime() + Math.min(MAX_FOLLOWER_WAIT_NANOS, syncNanos / 2);
        while (queued < expected && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
    }

    /** REQUIRES: {@code w} is at the head of the queue. Runs its group and hands over to the next leader. */
    private void lead(Writer w) {
        Writer last = w;
        Writer next;
        Throwable error = null;
        boolean syncGroup = w.batch != null && w.durability == Durability.SYNC;
        if (syncGroup) {
            awaitFollowers();
        }
        int taken = 1;
        state.lock.lock();
        try {
            assert head == w;
            try {
                stalls.makeRoom(w.batch == null, w.atClose, w.batch == null ? 0 : BatchAccess.encodedLength(w.batch),
                        w.batch == null ? 0 : w.batch.count());
                if (w.batch != null) {
                    last = buildGroup(w);
                    writeGroup(w, last);
                }
            } catch (Throwable t) {
                error = t;
            } finally {
                groupBatches.clear();
            }
            switchForBudgetIfDue();
            ctx.budget.report();
            for (Writer x = w; x != last; x = x.next) {
                taken++;
            }
            queued -= taken;
            expectedWriters = syncGroup ? queued + taken : 0;
            next = last.next;
            head = next;
            if (next == null) {
                tail = null;
                drained.signalAll();
            }
        } finally {
            state.lock.unlock();
        }
        // The group first, then the next leader: the woken writers' next writes can still join its group.
        Writer x = w == last ? null : w.next;
        while (x != null) {
            // Read before DONE is published: a woken writer reuses its Writer for its next write at once.
            Writer after = x == last ? null : x.next;
            Thread t = x.thread;
            x.error = error;
            x.phase = DONE;
            LockSupport.unpark(t);
            x = after;
        }
        if (next != null) {
            next.phase = LEADER;
            LockSupport.unpark(next.thread);
        }
        rethrow(error);
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

    /**
     * Takes the queued writers from the leader on with the same WAL class, up to the group size limit,
     * into {@link #groupBatches}; returns the last one taken.
     */
    @GuardedBy("state.lock")
    private Writer buildGroup(Writer leader) {
        long bytes = 0;
        long entries = 0;
        Writer last = leader;
        for (Writer x = leader; x != null; x = x.next) {
            if (x.batch == null || x.logged() != leader.logged()) {
                break;
            }
            int length = BatchAccess.encodedLength(x.batch);
            if (x != leader && (bytes + length > MAX_GROUP_BYTES
                    || !memstore.hasRoomFor(bytes + length, entries + x.batch.count()))) {
                break;
            }
            bytes += length;
            entries += x.batch.count();
            groupBatches.add(x.batch);
            last = x;
        }
        return last;
    }

    /** REQUIRES: lock held, caller is the leader. Releases the lock while doing I/O and inserting. */
    @GuardedBy("state.lock")
    private void writeGroup(Writer leader, Writer last) throws IOException {
        boolean logged = leader.logged();
        Wal wal = walRetention.wal();
        if (logged && (wal.needsRoll() || wal.size() >= memstore.logRollBytes())) {
            walRetention.roll();
        }
        long first = ctx.versions.lastSequence() + 1;
        long count = 0;
        long userBytes = 0;
        boolean sync = false;
        for (Writer x = leader; ; x = x.next) {
            count += x.batch.count();
            userBytes += BatchAccess.userBytes(x.batch);
            sync |= x.durability == Durability.SYNC;
            if (x == last) {
                break;
            }
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
                append(wal, first, count, sync);
            }
            insert(first);
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

    /**
     * Appends the group's record: a batch alone is its own record (its buffer, header filled in); a group
     * is encoded into the leaders' shared buffer.
     */
    private void append(Wal wal, long first, long count, boolean sync) throws IOException {
        byte[] record;
        int length;
        if (groupBatches.size() == 1) {
            WriteBatch b = groupBatches.get(0);
            record = BatchAccess.record(b, first);
            length = BatchAccess.recordLength(b);
        } else {
            // At most MAX_GROUP_BYTES plus one batch: buildGroup only lets the leader's batch exceed it.
            length = (int) BatchCodec.recordLength(groupBatches);
            if (groupRecord == null || groupRecord.length < length) {
                groupRecord = new byte[Math.max(length, Math.min(2 * length, MAX_KEPT_GROUP_RECORD))];
            }
            record = groupRecord;
            BatchCodec.encodeTo(record, first, groupBatches);
        }
        long t0 = sync ? System.nanoTime() : 0;
        wal.append(record, length, sync, first + count - 1);
        if (sync) {
            syncNanos += (System.nanoTime() - t0 - syncNanos) / 8;
        }
        ctx.counters.walBytes.add(length);
    }

    /** Inserts the group's batches into the MemStore, read in place, with consecutive sequences from {@code first}. */
    private void insert(long first) {
        long seq = first;
        for (int i = 0; i < groupBatches.size(); i++) {
            WriteBatch b = groupBatches.get(i);
            seq = BatchCodec.forEachOp(BatchAccess.buffer(b), BatchCodec.HEADER_LENGTH, BatchAccess.recordLength(b), seq,
                    inserter);
        }
        memstore.endWrite();
    }

    /** REQUIRES: lock held. Wakes every queued writer so it sees that the engine is closing. */
    @GuardedBy("state.lock")
    void wakeAll() {
        for (Writer w = head; w != null; w = w.next) {
            LockSupport.unpark(w.thread);
        }
    }

    /** REQUIRES: lock held. Whether no writer is queued or writing. */
    @GuardedBy("state.lock")
    boolean isEmpty() {
        return head == null;
    }

    /** REQUIRES: lock held. Waits up to {@code millis} for the queue to drain. */
    @GuardedBy("state.lock")
    void awaitDrained(long millis) throws InterruptedException {
        drained.awaitNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
