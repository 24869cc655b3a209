package io.bellows.engine.internal.io;

import io.bellows.engine.internal.util.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Finishes table files on threads of its own: the last write, the fsync and the close that a finished
 * table still owes the disk. A flush or compaction thread otherwise waits on them between one table and
 * the next; handed over, they overlap with building the next table. At scale factor 64 they took a
 * quarter of LSM_TRIE's compaction thread (a 128 KiB HTable is written whole at its sync) and a sixth of
 * FLSM's.
 *
 * <p>A sink tracks each table file it creates in its {@link Batch} and waits for the batch before it
 * calls its tables durable ({@code TableSink.finish}) or deletes them ({@code abandon}), so a version
 * still names a table only once its file is synced.
 *
 * <p>{@link #THREADS} threads per engine, started on demand and stopped when idle. A file's sync and
 * close run in order; different files' run side by side, so the tables a compaction writes at its end
 * (LSM_TRIE writes its eight children's at once) sync together, which the device and the file system's
 * journal serve in fewer round trips than one after another. In a JFR profile of an LSM_TRIE fill at
 * factor 64 the compaction thread's samples fell by 37% and the flush thread's native samples by 82%.
 */
public final class TableFinisher implements AutoCloseable {
    /**
     * Files of one sink handed over and not yet finished before the sink waits for the oldest: each
     * holds its write buffer until closed, so a disk slower than the builder costs at most this many.
     */
    static final int MAX_IN_FLIGHT = 4;
    /** Threads: the files of a batch sync side by side, which the device and the journal take in one go. */
    static final int THREADS = MAX_IN_FLIGHT;

    private final ThreadPoolExecutor executor;

    public TableFinisher() {
        executor = DaemonThreads.fixed("bellows-table-sync", THREADS);
    }

    /** The files of one sink. */
    public Batch batch() {
        return new Batch();
    }

    /** Lets handed-over work finish, then stops the threads. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(1, TimeUnit.HOURS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code task} after {@code previous} (null: none) on the finisher's threads, or here once it is closed. */
    private CompletableFuture<Void> submit(CompletableFuture<Void> previous, Runnable task) {
        if (!executor.isShutdown()) {
            try {
                return previous == null ? CompletableFuture.runAsync(task, executor)
                        : previous.thenRunAsync(task, executor);
            } catch (RejectedExecutionException e) {
                // closed meanwhile: run here
            }
        }
        if (previous != null) {
            previous.join();
        }
        task.run();
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Table files one sink writes; not thread-safe (one sink, one thread: its files' sync and close too,
     * which record the hand-over here).
     */
    public final class Batch {
        private final List<HandedFile> files = new ArrayList<>();
        /**
         * Files handed over, in that order, not yet seen finished. Counting by position in {@link #files}
         * instead let files still being written (a push streams its eight children at once) stand in for
         * unfinished ones, and the bound did not hold.
         */
        private final ArrayDeque<HandedFile> handed = new ArrayDeque<>();

        /**
         * {@code file}, whose sync and close will run on the finisher's threads; first waits for the oldest
         * handed-over file while {@link #MAX_IN_FLIGHT} of them are unfinished.
         */
        public WritableFile track(WritableFile file) throws IOException {
            handed.removeIf(HandedFile::isDone);
            // A loop: a sink may hand over several streamed files at once (a push's eight children).
            while (handed.size() >= MAX_IN_FLIGHT) {
                try {
                    handed.pollFirst().waitDone();
                } catch (IOException e) {
                    try {
                        file.close();
                    } catch (IOException | RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
            }
            HandedFile h = new HandedFile(this, file);
            files.add(h);
            return h;
        }

        /**
         * Waits until every tracked file has run what was handed over, all of them even after a failure;
         * throws the first failure.
         */
        public void await() throws IOException {
            Exception first = null;
            for (HandedFile f : files) {
                try {
                    f.await();
                } catch (IOException | RuntimeException e) {
                    if (first == null) {
                        first = e;
                    } else if (first != e) {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first instanceof IOException io) {
                throw io;
            }
            if (first != null) {
                throw (RuntimeException) first;
            }
        }

        /** As {@link #await}, ignoring failures: before the files are deleted. */
        public void awaitQuietly() {
            try {
                await();
            } catch (IOException | RuntimeException ignored) {
                // the files are being thrown away
            }
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    /**
     * A table file whose appends and flushes run in the caller's thread, and whose sync and close, once
     * called, run in order on the finisher's threads; nothing may be appended after them.
     */
    private final class HandedFile implements WritableFile {
        private final Batch batch;
        private final WritableFile file;
        private boolean handedOver;
        private CompletableFuture<Void> last;
        private volatile Throwable failure;

        HandedFile(Batch batch, WritableFile file) {
            this.batch = batch;
            this.file = file;
        }

        @Override
        public void append(byte[] b, int off, int len) throws IOException {
            checkOwned();
            file.append(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            checkOwned();
            file.flush();
        }

        @Override
        public void sync() {
            handOver(file::sync);
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public void close() {
            handOver(file::close);
        }

        private void checkOwned() throws IOException {
            if (handedOver) {
                throw new IOException("table file already handed over to be synced and closed");
            }
        }

        private void handOver(IoAction action) {
            if (!handedOver) {
                batch.handed.addLast(this);
            }
            handedOver = true;
            // Chained: this file's sync runs before its close; other files' run beside them.
            last = submit(last, () -> {
                try {
                    action.run();
                } catch (IOException | RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
            });
        }

        /** Whether what was handed over has run (false before anything was). */
        boolean isDone() {
            return last != null && last.isDone();
        }

        /**
         * Waits until what was handed over has run; returns what escaped a task (an Error: the tasks keep
         * I/O and runtime failures in {@link #failure}), else null.
         */
        Throwable waitDone() throws IOException {
            if (last == null) {
                return null;
            }
            try {
                last.get();
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for a table file's sync");
            } catch (ExecutionException e) {
                return e.getCause();
            }
        }

        void await() throws IOException {
            Throwable escaped = waitDone();
            if (escaped != null) {
                throw new IOException("table file sync failed", escaped);
            }
            Throwable f = failure;
            // The file's own exception, so that callers see the same failure (a full disk, say) as before.
            if (f instanceof IOException io) {
                throw io;
            }
            if (f instanceof RuntimeException re) {
                throw re;
            }
        }
    }
}
