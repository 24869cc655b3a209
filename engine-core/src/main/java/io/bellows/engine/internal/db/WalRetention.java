package io.bellows.engine.internal.db;

import io.bellows.engine.internal.util.GuardedBy;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WAL's life after recovery: rolling to a new log when a MemStore is switched or the log is full,
 * remembering the closed logs recovery would still replay, and releasing them early once in-memory
 * compaction has dropped everything they hold (Accordion's WAL truncation; {@link LogRetention} says why
 * that is safe). It also tracks unlogged ({@code Durability.NONE}) writes, which forbid that release.
 *
 * <p>Only the writer at the head of the {@link WriteQueue} appends and rolls; the background syncer and
 * the truncation job use {@link Wal}'s own synchronization.
 */
final class WalRetention {
    private static final Logger LOG = LoggerFactory.getLogger(WalRetention.class);
    private final EngineState state;
    private final EngineContext ctx;
    private final BackgroundThreads threads;
    private final FileSweeper sweeper;
    private final AtomicBoolean truncationScheduled = new AtomicBoolean();
    /** Closed logs recovery would still replay. */
    @GuardedBy("state.lock")
    private final LogRetention closedLogs = new LogRetention();
    /** Whether the active MemStore holds writes made with Durability.NONE. */
    @GuardedBy("state.lock")
    private boolean unloggedWrites;
    /** Whether the MemStore snapshot being flushed holds writes made with Durability.NONE. */
    @GuardedBy("state.lock")
    private boolean snapshotUnlogged;
    /** Set once recovery created it; null before. */
    private volatile Wal wal;

    WalRetention(EngineState state, EngineContext ctx, BackgroundThreads threads, FileSweeper sweeper) {
        this.state = state;
        this.ctx = ctx;
        this.threads = threads;
        this.sweeper = sweeper;
    }

    void attach(Wal recovered) {
        this.wal = recovered;
    }

    Wal wal() {
        return wal;
    }

    /** REQUIRES: lock held, caller is the leader. Starts a new log and remembers the closed one. */
    @GuardedBy("state.lock")
    long roll() throws IOException {
        long closedNumber = wal.number();
        long closedMax = wal.maxSequence();
        long number = ctx.versions.newFileNumber();
        boolean forced = wal.roll(number);
        closedLogs.closed(closedNumber, closedMax, forced);
        return number;
    }

    /** REQUIRES: lock held. The active MemStore now holds an unlogged write. */
    @GuardedBy("state.lock")
    void markUnlogged() {
        unloggedWrites = true;
    }

    /** REQUIRES: lock held. Whether the active MemStore holds unlogged writes (close flushes them). */
    @GuardedBy("state.lock")
    boolean hasUnloggedWrites() {
        return unloggedWrites;
    }

    /** REQUIRES: lock held. The active MemStore became the snapshot to flush. */
    @GuardedBy("state.lock")
    void snapshotTaken() {
        snapshotUnlogged = unloggedWrites;
        unloggedWrites = false;
    }

    /**
     * REQUIRES: lock held, just after {@link #snapshotTaken}. Whether every write of the snapshot is
     * durable in the closed logs: none was unlogged, and every log was forced when rolled. Only then may a
     * part of it be logged again elsewhere (a flush plan's carry-over) without a crash keeping that part
     * of a batch and losing the rest.
     */
    @GuardedBy("state.lock")
    boolean snapshotDurable() {
        return !snapshotUnlogged && closedLogs.allForced();
    }

    /**
     * REQUIRES: lock held, just after {@link #snapshotTaken}. The closed logs holding the snapshot's logged
     * records that were forced to their end when rolled (a crash keeps all of them), oldest first.
     */
    @GuardedBy("state.lock")
    long[] snapshotLogs() {
        return closedLogs.forcedLogs();
    }

    /** REQUIRES: lock held. The snapshot is in a table, and the manifest's log number moved past its logs. */
    @GuardedBy("state.lock")
    void snapshotFlushed() {
        snapshotUnlogged = false;
        closedLogs.prune(ctx.versions.logNumber());
    }

    /** Called by the MemStore after it dropped versions in memory. */
    void scheduleTruncation() {
        ExecutorService ex = threads.flush();
        if (ex == null || state.closing || !truncationScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            ex.execute(this::truncate);
        } catch (RejectedExecutionException e) {
            truncationScheduled.set(false);
        }
    }

    /**
     * Releases the logs whose every record is below the MemStore's oldest sequence by moving the
     * manifest's log number.
     *
     * <p>Unlogged (Durability.NONE) writes stop this: the version shadowing a dropped one may be
     * unlogged, and a crash would lose both. So does a current log that cannot be forced: the version
     * shadowing a dropped one may be an ASYNC record in its unforced tail (closed logs were forced when
     * rolled), and a crash would lose both. Runs on the flush thread, so it never interleaves with a
     * flush's log-number edit.
     */
    private void truncate() {
        truncationScheduled.set(false);
        long keepFrom;
        long current;
        state.lock.lock();
        try {
            if (state.closing || unloggedWrites || snapshotUnlogged) {
                return;
            }
            current = wal.number();
            keepFrom = closedLogs.firstNeeded(ctx.memstore.minSequence(), current);
            if (keepFrom <= ctx.versions.logNumber()) {
                return;
            }
        } finally {
            state.lock.unlock();
        }
        // Every version shadowing one dropped before the minimum was read was appended before it.
        if (!wal.force(current)) {
            return;
        }
        try {
            ctx.versions.logAndApply(new VersionEdit().logNumber(keepFrom));
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not record released WAL files; they stay until the next flush", e);
            return;
        }
        state.lock.lock();
        try {
            closedLogs.prune(ctx.versions.logNumber());
        } finally {
            state.lock.unlock();
        }
        ctx.memstoreCounters.logsReleasedEarly.increment();
        sweeper.schedule();
    }

    /** Closes the WAL at engine close, logging a failure: the data is in the MemStore flush or the log. */
    void close() {
        try {
            wal.close();
        } catch (IOException e) {
            LOG.error("closing the WAL failed", e);
        }
    }

    /** Closes the WAL of an open that is failing. */
    void closeQuietly() {
        Wal w = wal;
        if (w != null) {
            try {
                w.close();
            } catch (IOException ignored) {
                // open is failing anyway
            }
        }
    }
}
