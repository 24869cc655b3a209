package io.bellows.engine.internal.db;

import io.bellows.engine.internal.util.DaemonThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine's threads: one for in-memory flattening and compaction (needed from the first write of
 * recovery), and, started once recovery is done, one flush thread, {@code backgroundThreads - 1}
 * compaction threads and a scheduler (WAL syncs, retries, obsolete-file sweeps). Before {@link #start}
 * the latter are null, which tells callers that recovery is still running.
 */
final class BackgroundThreads {
    final ExecutorService inMemory = Executors.newSingleThreadExecutor(DaemonThreads.named("bellows-inmemory"));
    private volatile ExecutorService flush;
    private volatile ExecutorService compaction;
    private volatile ScheduledExecutorService scheduler;

    void start(int compactionThreads) {
        flush = Executors.newSingleThreadExecutor(DaemonThreads.named("bellows-flush"));
        compaction = Executors.newFixedThreadPool(compactionThreads, DaemonThreads.named("bellows-compaction"));
        scheduler = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("bellows-scheduler"));
    }

    /** The flush thread, or null during recovery. */
    ExecutorService flush() {
        return flush;
    }

    ExecutorService compaction() {
        return compaction;
    }

    /** The scheduler, or null during recovery. */
    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** Lets queued work finish and waits for it: in-memory work first, the scheduler last. */
    void shutdownAndAwait() {
        flush.shutdown();
        compaction.shutdown();
        scheduler.shutdown();
        inMemory.shutdown();
        try {
            inMemory.awaitTermination(1, TimeUnit.HOURS);
            flush.awaitTermination(1, TimeUnit.HOURS);
            compaction.awaitTermination(1, TimeUnit.HOURS);
            scheduler.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
