package io.bellows.engine.internal.db;

import io.bellows.engine.EngineClosedException;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.MemoryLimitException;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Backpressure for the write group at the head of the queue: delays it once when the scheme reports
 * SLOWDOWN (by its own counts or its pending compaction bytes), waits while it says STOP or a MemStore
 * snapshot is still being flushed, waits (bounded) for MemStore memory, and switches to a new MemStore
 * when the current one is due for a flush. Every wait is counted as a stall.
 */
final class StallController {
    private static final long STALL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a write waiting for MemStore memory rechecks: views close without signalling. */
    private static final long MEMORY_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How long a write waits for MemStore memory before it is refused (before being logged). */
    private static final long MEMORY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private final EngineState state;
    private final EngineContext ctx;
    private final MemStore memstore;
    private final FlushScheduler flushes;
    private final CompactionScheduler compactions;
    /** The version {@link #pendingBytes} was computed for. */
    @GuardedBy("state.lock")
    private Version pendingVersion;
    @GuardedBy("state.lock")
    private long pendingBytes;

    StallController(EngineState state, EngineContext ctx, FlushScheduler flushes, CompactionScheduler compactions) {
        this.state = state;
        this.ctx = ctx;
        this.memstore = ctx.memstore;
        this.flushes = flushes;
        this.compactions = compactions;
    }

    /** What the group at the head of the queue must do next. */
    private enum Step { DELAY, WAIT_FOR_COMPACTION, WAIT_FOR_FLUSH, WAIT_FOR_MEMORY, SWITCH, PROCEED }

    /**
     * REQUIRES: lock held, caller is the leader. Returns once a group of {@code entries} cells in
     * {@code bytes} may be logged and inserted; with {@code force} (a requested flush), once the MemStore
     * holding data has been switched. A group the MemStore's memory cannot take waits here, before it
     * is logged, so an insert never fails after its WAL append; one it could never take is refused at
     * once. Once close is requested, only close's own switch ({@code atClose}) waits for background
     * work: a write that would have to wait is refused, so close drains the queue promptly.
     */
    @GuardedBy("state.lock")
    void makeRoom(boolean force, boolean atClose, long bytes, long entries) throws IOException {
        if (!force && !memstore.canEverHold(bytes, entries)) {
            throw new MemoryLimitException("a write of " + bytes + " encoded bytes in " + entries + " entries can never"
                    + " fit in the MemStore's memory limit of " + memstore.memoryLimit() + " bytes (offHeapLimit, by"
                    + " default 4 x memstoreSize); raise offHeapLimit or split the write");
        }
        boolean allowDelay = !force;
        long stallStart = 0;
        long memoryWaitStart = 0;
        // The stall's time goes to the cause of each wait in turn, from its step to the next wait's (a
        // switch between two waits counts with the first), so the causes add up to the stall.
        LongAdder waitingFor = null;
        long since = 0;
        try {
            while (true) {
                if (state.closing) {
                    throw new EngineClosedException("engine is closed");
                }
                Step step = next(force, allowDelay, bytes, entries);
                if (waitingFor != null) {
                    long now = System.nanoTime();
                    waitingFor.add(now - since);
                    since = now;
                }
                LongAdder cause = switch (step) {
                    case WAIT_FOR_COMPACTION -> ctx.counters.stallStopNanos;
                    case WAIT_FOR_FLUSH -> ctx.counters.stallFlushNanos;
                    case WAIT_FOR_MEMORY -> ctx.counters.stallMemoryNanos;
                    default -> null;
                };
                if (cause != null) {
                    waitingFor = cause;
                }
                switch (step) {
                    case DELAY:
                        // Delay this group by 1 ms once instead of stopping later for seconds (LevelDB's rule).
                        allowDelay = false;
                        delayOnce();
                        break;
                    case WAIT_FOR_COMPACTION:
                    case WAIT_FOR_FLUSH:
                        giveUpIfClosing(atClose, "a flush or compaction");
                        flushes.checkCloseNotBlocked();
                        if (stallStart == 0) {
                            stallStart = System.nanoTime();
                            since = stallStart;
                            ctx.counters.stalls.increment();
                            ctx.events.stallBegin();
                        }
                        compactions.maybeSchedule();
                        state.backgroundChanged.awaitNanos(STALL_RECHECK_NANOS);
                        break;
                    case WAIT_FOR_MEMORY:
                        // The flush, an in-memory compaction or readers closing their views return memory;
                        // long-lived cursors may never do, so the wait is bounded.
                        giveUpIfClosing(atClose, "MemStore memory");
                        flushes.checkCloseNotBlocked();
                        long now = System.nanoTime();
                        if (memoryWaitStart == 0) {
                            memoryWaitStart = now;
                            if (stallStart == 0) {
                                stallStart = now;
                                since = now;
                                ctx.counters.stalls.increment();
                                ctx.events.stallBegin();
                            }
                        } else if (now - memoryWaitStart > MEMORY_WAIT_NANOS) {
                            throw new MemoryLimitException("the MemStore's memory had no room for a write of " + bytes
                                    + " bytes for " + TimeUnit.NANOSECONDS.toSeconds(MEMORY_WAIT_NANOS) + " s ("
                                    + memstore.stats().pool + "); raise offHeapLimit, or close long-lived cursors,"
                                    + " which pin the MemStore memory they read");
                        }
                        state.backgroundChanged.awaitNanos(MEMORY_RECHECK_NANOS);
                        break;
                    case SWITCH:
                        flushes.switchMemStore();
                        force = false;
                        break;
                    case PROCEED:
                        return;
                    default:
                        throw new AssertionError();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineIOException("interrupted while waiting for a flush", new InterruptedIOException());
        } finally {
            if (stallStart != 0) {
                long end = System.nanoTime();
                if (waitingFor != null) {
                    waitingFor.add(end - since);
                }
                long stalled = end - stallStart;
                ctx.counters.stallNanos.add(stalled);
                ctx.events.stallEnded(stalled);
            }
        }
    }

    /**
     * REQUIRES: lock held, no other leader. A switch the shared MemStore budget asked for: only if the
     * MemStore holds data, the last snapshot is flushed and the scheme does not stop writes (a flush
     * adds a table as a write would), never waiting. Returns whether it switched.
     */
    @GuardedBy("state.lock")
    boolean switchForBudget() throws IOException {
        if (state.closeRequested || memstore.hasSnapshot() || memstore.isActiveEmpty()
                || pressure() == WritePressure.STOP) {
            return false;
        }
        flushes.switchMemStore();
        return true;
    }

    private void giveUpIfClosing(boolean atClose, String what) {
        if (state.closeRequested && !atClose) {
            throw new EngineClosedException("engine closed while the write waited for " + what);
        }
    }

    /** The first rule that applies, in priority order. */
    @GuardedBy("state.lock")
    private Step next(boolean force, boolean allowDelay, long bytes, long entries) {
        WritePressure pressure = pressure();
        if (allowDelay && pressure == WritePressure.SLOWDOWN) {
            return Step.DELAY;
        }
        if (pressure == WritePressure.STOP && !(force && state.closeRequested)) {
            return Step.WAIT_FOR_COMPACTION;
        }
        if (snapshotBlocksSwitch(force)) {
            return Step.WAIT_FOR_FLUSH;
        }
        if (force) {
            return memstore.isActiveEmpty() ? Step.PROCEED : Step.SWITCH;
        }
        if (!memstore.hasRoomFor(bytes, entries)) {
            // A bounded (off-heap) MemStore is full: flushing it frees its memory, if there is no
            // snapshot still holding memory and the flush frees enough to be worth a table.
            return !memstore.hasSnapshot() && flushFreesMemory() ? Step.SWITCH : Step.WAIT_FOR_MEMORY;
        }
        return memstore.shouldFlush() ? Step.SWITCH : Step.PROCEED;
    }

    /**
     * {@link WritePressure#of(io.bellows.engine.internal.compaction.CompactionScheme, Version, long, long)},
     * with the pending compaction bytes computed once per version (a function of the version alone,
     * whose computation allocates) rather than once per write group.
     */
    @GuardedBy("state.lock")
    private WritePressure pressure() {
        Version v = ctx.versions.current();
        WritePressure own = ctx.scheme.pressure(v);
        long soft = ctx.options.softPendingCompactionBytesLimit();
        long hard = ctx.options.hardPendingCompactionBytesLimit();
        if (own == WritePressure.STOP || soft == 0 && hard == 0) {
            return own;
        }
        if (v != pendingVersion) {
            pendingBytes = ctx.scheme.pendingCompactionBytes(v);
            pendingVersion = v;
        }
        return WritePressure.of(own, pendingBytes, soft, hard);
    }

    /** Whether the MemStore needs switching (forced with data, or due) but the last snapshot is not flushed. */
    private boolean snapshotBlocksSwitch(boolean force) {
        return memstore.hasSnapshot() && (force ? !memstore.isActiveEmpty() : memstore.shouldFlush());
    }

    @GuardedBy("state.lock")
    private void delayOnce() {
        ctx.counters.stalls.increment();
        long t0 = System.nanoTime();
        state.lock.unlock();
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            state.lock.lock();
        }
        long delayed = System.nanoTime() - t0;
        ctx.counters.stallNanos.add(delayed);
        ctx.counters.stallDelayNanos.add(delayed);
    }

    /**
     * Whether flushing the MemStore would give back enough memory to be worth a table: an eighth of a
     * MemStore's worth. When readers pin the rest of the pool, flushing what a few groups added would
     * leave a tiny table per group; the group waits for the readers instead. Counted in memory, not
     * data: cells of empty keys and values fill chunks without adding data bytes.
     */
    private boolean flushFreesMemory() {
        return !memstore.isActiveEmpty() && memstore.stats().offHeapBytes >= ctx.options.memstoreSize() / 8;
    }
}
