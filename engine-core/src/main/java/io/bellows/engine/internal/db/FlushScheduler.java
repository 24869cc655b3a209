package io.bellows.engine.internal.db;

import io.bellows.engine.EngineClosedException;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk flush: switches the full MemStore to a snapshot and a new WAL, writes the snapshot to tables
 * on the flush thread, installs them, and only then lets readers stop finding the data in memory. A
 * failed flush keeps the snapshot (readable) and retries with a growing delay.
 */
final class FlushScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(FlushScheduler.class);
    private static final long MAX_RETRY_DELAY_MS = 5_000;
    private final EngineState state;
    private final EngineContext ctx;
    private final FlushWriter writer;
    private final WalRetention walRetention;
    private final BackgroundThreads threads;
    private final FileSweeper sweeper;
    private final CompactionScheduler compactions;
    private final CarryOver carryOver;
    /** The MemStore snapshot to flush, or null. */
    @GuardedBy("state.lock")
    private List<Segment> pending;
    /** Log number the pending snapshot ends before; -1 when no flush is pending. */
    @GuardedBy("state.lock")
    private long pendingLog = -1;
    /** The forced logs holding the pending snapshot's logged records, oldest first. */
    @GuardedBy("state.lock")
    private long[] pendingLogs;
    /** The scheme's plan for the pending snapshot (keys carried over in memory), or null. */
    @GuardedBy("state.lock")
    private FlushPlan pendingPlan;
    @GuardedBy("state.lock")
    private boolean scheduled;
    @GuardedBy("state.lock")
    private int failures;

    FlushScheduler(EngineState state, EngineContext ctx, FlushWriter writer, WalRetention walRetention,
            BackgroundThreads threads, FileSweeper sweeper, CompactionScheduler compactions) {
        this.state = state;
        this.ctx = ctx;
        this.writer = writer;
        this.walRetention = walRetention;
        this.threads = threads;
        this.sweeper = sweeper;
        this.compactions = compactions;
        this.carryOver = new CarryOver(ctx);
    }

    /** REQUIRES: lock held, leader. Starts a new WAL, snapshots the MemStore, schedules its flush. */
    @GuardedBy("state.lock")
    void switchMemStore() throws IOException {
        long number = walRetention.roll();
        pending = ctx.memstore.snapshot();
        pendingLog = number;
        walRetention.snapshotTaken();
        pendingLogs = walRetention.snapshotLogs();
        pendingPlan = carryOver.carry(pending, walRetention.wal(), walRetention.snapshotDurable());
        schedule(0);
    }

    @GuardedBy("state.lock")
    private void schedule(long delayMs) {
        if (scheduled) {
            return;
        }
        scheduled = true;
        if (delayMs == 0) {
            threads.flush().execute(this::run);
        } else {
            threads.scheduler().schedule(() -> threads.flush().execute(this::run), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private void run() {
        List<Segment> segments;
        long logNumber;
        FlushPlan plan;
        long[] logs;
        state.lock.lock();
        try {
            scheduled = false;
            if (pending == null) {
                return;
            }
            segments = pending;
            logNumber = pendingLog;
            plan = pendingPlan;
            logs = pendingLogs;
        } finally {
            state.lock.unlock();
        }
        List<FileMeta> files = List.of();
        long start = System.nanoTime();
        ctx.events.flushBegin();
        try {
            // WAL truncation (on this thread, so not during this flush) may have released the oldest logs.
            long first = ctx.versions.logNumber();
            files = writer.write(segments, plan, Arrays.stream(logs).filter(n -> n >= first).toArray());
            VersionEdit edit = new VersionEdit();
            for (FileMeta f : files) {
                ctx.scheme.placeFlush(ctx.versions.current(), f, edit);
            }
            // WAL truncation may have moved the log number past this snapshot's logs already.
            edit.logNumber(Math.max(logNumber, ctx.versions.logNumber()));
            ctx.versions.logAndApply(edit);
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof VersionSet.ManifestWriteException)) {
                for (FileMeta f : files) {
                    ctx.pendingOutputs.remove(f.number);
                }
            }
            ctx.counters.backgroundErrors.increment();
            ctx.events.backgroundError("flush", e);
            state.lock.lock();
            try {
                long delay = retryDelay(++failures);
                LOG.error("flush failed (attempt {}); the MemStore snapshot is kept and readable, retrying in {} ms",
                        failures, delay, e);
                state.backgroundChanged.signalAll();
                if (!state.closing) {
                    schedule(delay);
                }
            } finally {
                state.lock.unlock();
            }
            return;
        }
        for (FileMeta f : files) {
            ctx.pendingOutputs.remove(f.number);
        }
        ctx.events.flushCompleted(files, System.nanoTime() - start);
        state.lock.lock();
        try {
            // Only now that the version holds the table may readers stop finding the data in memory.
            ctx.memstore.clearSnapshot();
            pending = null;
            pendingLog = -1;
            pendingPlan = null;
            pendingLogs = null;
            walRetention.snapshotFlushed();
            failures = 0;
            ctx.budget.report();
            ctx.counters.flushes.increment();
            state.backgroundChanged.signalAll();
            compactions.maybeSchedule();
        } finally {
            state.lock.unlock();
        }
        sweeper.schedule();
    }

    /** Waits until no MemStore snapshot is waiting to be flushed. */
    void awaitFlushed() {
        state.lock.lock();
        try {
            while (ctx.memstore.hasSnapshot()) {
                if (state.closing) {
                    throw new EngineClosedException("engine closed while waiting for a flush");
                }
                checkCloseNotBlocked();
                state.backgroundChanged.awaitUninterruptibly();
            }
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * REQUIRES: lock held. Close must not wait forever behind a flush that keeps failing: once close is
     * requested, a failed flush ends the wait.
     */
    @GuardedBy("state.lock")
    void checkCloseNotBlocked() {
        if (state.closeRequested && failures > 0) {
            throw new EngineIOException("flush is failing while the engine closes", new IOException("flush failed "
                    + failures + " time(s)"));
        }
    }

    /** Delay before retry number {@code failures} of a failed flush or compaction. */
    static long retryDelay(int failures) {
        return Math.min(MAX_RETRY_DELAY_MS, 50L << Math.min(failures, 10));
    }
}
