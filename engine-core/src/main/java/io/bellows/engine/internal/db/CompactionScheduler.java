package io.bellows.engine.internal.db;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Disk compactions: asks the scheme for the next one whenever something changed, runs up to
 * {@code backgroundThreads - 1} at once on tables no other compaction holds, backs off after a failure,
 * and runs {@code compactRange} with automatic compactions paused.
 */
final class CompactionScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionScheduler.class);
    private final EngineState state;
    private final EngineContext ctx;
    private final BackgroundThreads threads;
    private final FileSweeper sweeper;
    private final int maxCompactions;
    /** Input tables of running compactions. */
    @GuardedBy("state.lock")
    private final Set<Long> busyTables = new HashSet<>();
    @GuardedBy("state.lock")
    private int running;
    @GuardedBy("state.lock")
    private boolean manual;
    /** System.nanoTime() before which no compaction is picked after a failure. */
    @GuardedBy("state.lock")
    private long retryAtNanos;
    @GuardedBy("state.lock")
    private int failures;

    CompactionScheduler(EngineState state, EngineContext ctx, BackgroundThreads threads, FileSweeper sweeper) {
        this.state = state;
        this.ctx = ctx;
        this.threads = threads;
        this.sweeper = sweeper;
        this.maxCompactions = Math.max(1, ctx.options.backgroundThreads() - 1);
    }

    int maxCompactions() {
        return maxCompactions;
    }

    /** REQUIRES: lock held. Starts the compactions the scheme wants, as threads allow. */
    @GuardedBy("state.lock")
    void maybeSchedule() {
        if (state.closing || manual || System.nanoTime() - retryAtNanos < 0) {
            return;
        }
        while (running < maxCompactions) {
            Compaction c = ctx.scheme.pick(ctx.versions.current(), busyTables);
            if (c == null) {
                return;
            }
            for (FileMeta f : c.inputFiles()) {
                busyTables.add(f.number);
            }
            running++;
            threads.compaction().execute(() -> run(c));
        }
    }

    /** Takes the lock and {@link #maybeSchedule}s. */
    void scheduleLocked() {
        state.lock.lock();
        try {
            maybeSchedule();
        } finally {
            state.lock.unlock();
        }
    }

    private void run(Compaction c) {
        boolean ok = false;
        try {
            execute(c);
            ok = true;
        } catch (IOException | RuntimeException e) {
            ctx.counters.backgroundErrors.increment();
            LOG.error("compaction failed: {}; its inputs are untouched", c, e);
            ctx.events.backgroundError("compaction", e);
        } finally {
            state.lock.lock();
            try {
                for (FileMeta f : c.inputFiles()) {
                    busyTables.remove(f.number);
                }
                running--;
                if (ok) {
                    failures = 0;
                } else {
                    long delay = FlushScheduler.retryDelay(++failures);
                    retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
                    threads.scheduler().schedule(this::scheduleLocked, delay, TimeUnit.MILLISECONDS);
                }
                state.backgroundChanged.signalAll();
                maybeSchedule();
            } finally {
                state.lock.unlock();
            }
            sweeper.schedule();
        }
    }

    /** Runs one compaction on the calling thread and installs its result. */
    private void execute(Compaction c) throws IOException {
        ctx.counters.compactionsRunning.incrementAndGet();
        try {
            executeCounted(c);
        } finally {
            ctx.counters.compactionsRunning.decrementAndGet();
        }
    }

    private void executeCounted(Compaction c) throws IOException {
        TableSink out = ctx.scheme.compactionOutputs(c, ctx.writeContext(ctx.counters.compactionBytesWritten, c.outputLevel()));
        boolean keepOutputs = false;
        long start = System.nanoTime();
        ctx.events.compactionBegin(c);
        try {
            VersionEdit edit = ctx.scheme.runCompaction(c, ctx.tables, ctx.snapshots.sequences(), out);
            ctx.scheme.onCompacted(c, edit);
            ctx.versions.logAndApply(edit);
            ctx.events.compactionCompleted(c, edit, System.nanoTime() - start);
            if (!c.isTrivialMove()) {
                ctx.counters.compactionBytesRead.add(c.inputBytes());
            }
            ctx.counters.compactions.increment();
            LOG.debug("compacted {}", c);
        } catch (VersionSet.ManifestWriteException e) {
            // The edit may be durable: its outputs stay (pending, so the sweep leaves them) until the
            // next open decides from the manifest whether they are live.
            keepOutputs = true;
            throw e;
        } catch (IOException | RuntimeException e) {
            out.abandon();
            throw e;
        } finally {
            if (!keepOutputs) {
                ctx.pendingOutputs.removeAll(out.created());
            }
        }
    }

    /**
     * Compacts every level's tables overlapping [from, to] (nulls are open ends) on the calling thread,
     * with automatic compactions paused; the caller has flushed the MemStore.
     */
    void compactRange(byte[] from, byte[] to) {
        state.lock.lock();
        try {
            while (manual) {
                state.awaitBackground("compactRange");
            }
            // Stops new automatic compactions; the running ones finish first.
            manual = true;
            try {
                while (running > 0) {
                    state.awaitBackground("compactRange");
                }
            } catch (RuntimeException e) {
                manual = false;
                throw e;
            }
        } finally {
            state.lock.unlock();
        }
        try {
            // Every level, the last included: a scheme may compact within it (LSM_TRIE's garbage collection).
            for (int level = 0; level < ctx.versions.numLevels() && !state.closing; level++) {
                Compaction c = ctx.scheme.pickManual(ctx.versions.current(), level, from, to);
                if (c != null) {
                    execute(c);
                    sweeper.schedule();
                }
            }
        } catch (IOException e) {
            ctx.counters.backgroundErrors.increment();
            ctx.events.backgroundError("compactRange", e);
            throw IoErrors.wrap("compactRange failed", e);
        } finally {
            state.lock.lock();
            try {
                manual = false;
                state.backgroundChanged.signalAll();
                maybeSchedule();
            } finally {
                state.lock.unlock();
            }
        }
    }

    /** REQUIRES: lock held. Whether a compactRange is running (close waits for its level to finish). */
    @GuardedBy("state.lock")
    boolean manualRunning() {
        return manual;
    }

    /** Whether no compaction runs and none is due (tests). */
    boolean idle() {
        state.lock.lock();
        try {
            return running == 0 && ctx.scheme.pick(ctx.versions.current(), busyTables) == null;
        } finally {
            state.lock.unlock();
        }
    }
}
