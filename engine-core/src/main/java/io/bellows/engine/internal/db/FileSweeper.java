package io.bellows.engine.internal.db;

import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs {@link ObsoleteFiles} sweeps on the scheduler, at most one queued at a time. */
final class FileSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(FileSweeper.class);
    private final ObsoleteFiles files;
    private final BackgroundThreads threads;
    private final EngineState state;
    private final AtomicBoolean scheduled = new AtomicBoolean();

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
        try {
            scheduler.execute(() -> {
                scheduled.set(false);
                try {
                    files.sweep(false);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("could not delete obsolete files; will retry after the next flush or compaction", e);
                }
            });
        } catch (RejectedExecutionException e) {
            scheduled.set(false);
        }
    }

    /** The sweep at the end of open, which also removes leftover manifests and temporary files. */
    void sweepAtOpen() throws IOException {
        files.sweep(true);
    }
}
