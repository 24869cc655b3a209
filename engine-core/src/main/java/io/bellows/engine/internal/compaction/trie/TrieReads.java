package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.util.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The reads of an LSM_TRIE flush or compaction issued side by side instead of one after another: the
 * bucket areas of its input tables, and the BloomClusters of the piles it writes onto (a push writes
 * onto eight). With direct I/O each was a synchronous read at queue depth one, and together they were
 * two fifths of the compaction thread's wall time in an LSM_TRIE fill at scale factor 64 (stack samples,
 * docs/benchmarks.md, "LSM_TRIE's compaction reads side by side"); the device serves eight at once in
 * little more than the time of one.
 *
 * <p>One per store; {@link #THREADS} daemon threads started on demand and stopped when idle. Tasks only
 * read files a version the caller holds still names.
 */
final class TrieReads {
    /** A push reads eight inputs (a pile's trigger) and eight children's clusters. */
    static final int THREADS = 8;

    /** A read that may fail. */
    interface Read<T> {
        T run() throws IOException;
    }

    private final ThreadPoolExecutor executor;

    TrieReads() {
        executor = DaemonThreads.fixed("bellows-trie-read", THREADS);
    }

    /** Starts {@code read} on a thread of this pool. */
    <T> CompletableFuture<T> start(Read<T> read) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return read.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, executor);
    }

    /** The pool itself, for reads that report through their own futures (windows read ahead). */
    Executor executor() {
        return executor;
    }

    /** Every result, in order, once all are done; the first failure is thrown after the others ended. */
    static <T> List<T> joinAll(List<CompletableFuture<T>> reads) throws IOException {
        List<T> out = new ArrayList<>(reads.size());
        IOException io = null;
        RuntimeException runtime = null;
        for (CompletableFuture<T> f : reads) {
            try {
                out.add(join(f));
            } catch (IOException e) {
                io = io == null ? e : io;
            } catch (RuntimeException e) {
                runtime = runtime == null ? e : runtime;
            }
        }
        if (io != null) {
            throw io;
        }
        if (runtime != null) {
            throw runtime;
        }
        return out;
    }

    /** The result of {@code read}, with the exception it failed with as its own. */
    static <T> T join(CompletableFuture<T> read) throws IOException {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a table read");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null
                    ? c.getCause() : e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }
}
