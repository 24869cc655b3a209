package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Positions the tables of one guard concurrently (paper §4.2, "Parallel Seeks"): each table's seek
 * may read an index and a data block from the device, and a guard of the last level, whose data is
 * the least likely to be cached, can hold several tables. The caller seeks the first table itself
 * and waits for the others, so a seek costs about one table's I/O instead of the sum.
 *
 * <p>Threads come from one shared pool of daemon threads that exit after a minute idle. Handing an
 * iterator to a pool thread and joining it orders its state for the caller (CompletableFuture).
 */
final class ParallelSeek {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bellows-seek-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private ParallelSeek() {}

    /**
     * Pre-seeks every iterator at {@code (key, sequence)}, forward or for prev ({@code forPrev}); rethrows the
     * first failure after all finished.
     */
    static void seekAll(List<PreSeekedIterator> its, byte[] key, long sequence, boolean forPrev) {
        List<CompletableFuture<Void>> pending = new ArrayList<>(its.size() - 1);
        for (int i = 1; i < its.size(); i++) {
            PreSeekedIterator it = its.get(i);
            pending.add(CompletableFuture.runAsync(() -> it.preSeek(key, sequence, forPrev), POOL));
        }
        RuntimeException failure = null;
        try {
            its.get(0).preSeek(key, sequence, forPrev);
        } catch (RuntimeException e) {
            failure = e;
        }
        for (CompletableFuture<Void> f : pending) {
            try {
                f.join();
            } catch (CompletionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A table iterator that can be positioned ahead of the merge that owns it: the merge's own seek (or
     * seek for prev) to the same target then keeps the position instead of seeking again.
     */
    static final class PreSeekedIterator implements InternalIterator {
        private final InternalIterator in;
        private byte[] preKey;
        private long preSequence;
        private boolean preForPrev;

        PreSeekedIterator(InternalIterator in) {
            this.in = in;
        }

        void preSeek(byte[] key, long sequence, boolean forPrev) {
            if (forPrev) {
                in.seekForPrev(key, sequence);
            } else {
                in.seek(key, sequence);
            }
            preKey = key;
            preSequence = sequence;
            preForPrev = forPrev;
        }

        /** Whether the pre-seek already did this positioning; either way, it is used up. */
        private boolean preSeeked(byte[] userKey, long sequence, boolean forPrev) {
            boolean done = preKey == userKey && preSequence == sequence && preForPrev == forPrev;
            preKey = null;
            return done;
        }

        @Override
        public void seek(byte[] userKey, long sequence) {
            if (!preSeeked(userKey, sequence, false)) {
                in.seek(userKey, sequence);
            }
        }

        @Override
        public void seekForPrev(byte[] userKey, long sequence) {
            if (!preSeeked(userKey, sequence, true)) {
                in.seekForPrev(userKey, sequence);
            }
        }

        @Override
        public void seekToFirst() {
            preKey = null;
            in.seekToFirst();
        }

        @Override
        public void seekToLast() {
            preKey = null;
            in.seekToLast();
        }

        @Override
        public void next() {
            preKey = null;
            in.next();
        }

        @Override
        public void prev() {
            preKey = null;
            in.prev();
        }

        @Override
        public boolean isValid() {
            return in.isValid();
        }

        @Override
        public byte[] key() {
            return in.key();
        }

        @Override
        public Slice keySlice() {
            return in.keySlice();
        }

        @Override
        public Slice valueSlice() {
            return in.valueSlice();
        }

        @Override
        public long sequence() {
            return in.sequence();
        }

        @Override
        public int kind() {
            return in.kind();
        }

        @Override
        public byte[] value() {
            return in.value();
        }

        @Override
        public void close() {
            in.close();
        }
    }
}
