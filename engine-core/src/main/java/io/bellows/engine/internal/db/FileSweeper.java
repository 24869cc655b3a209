package io.bellows.engine.internal.db;

import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link ObsoleteFiles} sweeps on the scheduler, at most one queued at a time, and each no sooner
 * after the one before than {@link #COST_RATIO} times that one's duration (at most {@link #MAX_DELAY_NANOS}):
 * a sweep lists the directory and every live table, and one after each flush and compaction was 14% of
 * an FLSM fill's Java samples on a store of 30,000 tables. A small store's sweep is short,
 * so its files go about as soon as before; a large one's wait up to half a second longer.
 */
final class FileSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(FileSweeper.class);
    /** Sweeps use at most 1 / (1 + COST_RATIO) of a core. */
    static final int COST_RATIO = 19;
    static final long MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private final ObsoleteFiles files;
    private final BackgroundThreads threads;
    private final EngineState state;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** System.nanoTime() before which no sweep starts. */
    private volatile long notBefore = System.nanoTime();

    FileSweeper(ObsoleteFiles files, BackgroundThreads threads, EngineState state) {
        this.files = files;
        this.threads = threads;
        this.state = state;
    }

    void schedule() {
        ScheduledExecutorService scheduler = threads.scheduler();
        // During recovery (no scheduler yet) the sweep at the end of open covers it.
        if (scheduler == null || state.isClosed() || !scheduled.compareAndSet(false, true)) {
            return;
        }
        long delay = Math.max(0, notBefore - System.nanoTime());
        try {
            // Close waits for a queued sweep: the scheduler runs delayed tasks after shutdown.
            scheduler.schedule(() -> {
                scheduled.set(false);
                long start = System.nanoTime();
                try {
                    files.sweep(false);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("could not delete obsolete files; will retry after the next flush or compaction", e);
                } finally {
                    long end = System.nanoTime();
                    notBefore = end + Math.min(MAX_DELAY_NANOS, COST_RATIO * (end - start));
                }
            }, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            scheduled.set(false);
        }
    }

    /** The sweep at the end of open, which also removes leftover manifests and temporary files. */
    void sweepAtOpen() throws IOException {
        files.sweep(true);
    }
}
