package io.bellows.engine.internal.memstore;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One MemStore made by the engine's own factory ({@link MemStores#create}) for a jcstress state, with
 * the in-memory compaction held back until an actor runs it, and the probes the tests grade outcomes by.
 *
 * <p>Every value written is {@link #value(long)}: {@value #VALUE_LENGTH} bytes derived from its sequence,
 * so a read that returns a cell whose bytes were overwritten by a recycled chunk is told apart from a
 * read of another version. With the smallest MemStore (64 KiB) and active fraction (0.001) the active
 * segment holds 65 bytes, so each single-cell write group is pushed into the pipeline by its
 * {@code endWrite}, as a full active segment is in a running engine.
 */
public final class MemStoreRig {
    /** The key every test reads; {@link #OTHER} is written to take recycled chunks without shadowing it. */
    public static final byte[] KEY = {'k'};
    public static final byte[] OTHER = {'j'};
    static final int VALUE_LENGTH = 80;
    /** What {@link #read} returns when the key has no version at the sequence. */
    public static final int ABSENT = 0;
    /** What {@link #read} returns for a version whose bytes are not the ones written (a recycled chunk). */
    public static final int CORRUPT = -1;

    public final MemStore store;
    public final HeldTasks compactions = new HeldTasks();

    /** Runs the in-memory compaction only when an actor says so, on the actor's thread. */
    public static final class HeldTasks implements Executor {
        private final List<Runnable> queue = new ArrayList<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        /** Runs the queued runs (and those they queue) until none is left. */
        public void runAll() {
            Runnable r;
            while ((r = poll()) != null) {
                r.run();
            }
        }

        /** Runs the first queued run only; false if none was queued. */
        public boolean runOne() {
            Runnable r = poll();
            if (r != null) {
                r.run();
            }
            return r != null;
        }

        /** Runs queued and not yet run. */
        public synchronized int queued() {
            return queue.size();
        }

        private synchronized Runnable poll() {
            return queue.isEmpty() ? null : queue.remove(0);
        }
    }

    /**
     * @param published the last sequence readers can see, as the compaction reads it
     * @param snapshots the live snapshot sequences, as the compaction reads them
     */
    public MemStoreRig(EngineOptions options, LongSupplier published, Supplier<long[]> snapshots) {
        MemStoreContext ctx = new MemStoreContext(published, snapshots, compactions, new MemStoreCounters(), () -> { });
        this.store = MemStores.create(options, ctx);
    }

    /**
     * The smallest MemStore the options allow, with MSLAB (the default) and the given policy and layout.
     *
     * @param pipelineSegments S, above which BASIC merges the pipeline
     */
    public static EngineOptions options(InMemoryCompaction policy, MemoryLayout layout, int pipelineSegments) {
        return EngineOptions.builder()
                .memstoreSize(64 << 10)
                .activeSegmentFraction(0.001)
                .inMemoryCompaction(policy)
                .pipelineSegments(pipelineSegments)
                .memoryLayout(layout)
                .build();
    }

    /** The value written at {@code seq}. */
    public static byte[] value(long seq) {
        byte[] v = new byte[VALUE_LENGTH];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) (seq * 31 + i);
        }
        return v;
    }

    /** One write group of one PUT, as the write leader adds it (the group ends, so a full segment is pushed). */
    public void put(byte[] key, long seq) {
        store.add(key, seq, InternalKeys.KIND_PUT, value(seq));
        store.endWrite();
    }

    /** Reads {@link #KEY} at {@code seq} through a new view, as a point read does. */
    public int read(long seq) {
        try (MemStoreView v = store.view()) {
            return read(v, seq);
        }
    }

    /**
     * The sequence of the version of {@link #KEY} that {@code v} shows at {@code seq} when its bytes are the
     * ones written at that sequence; {@link #ABSENT} or {@link #CORRUPT} otherwise.
     */
    public static int read(MemStoreView v, long seq) {
        Lookup lk = new Lookup();
        if (!v.get(KEY, seq, lk)) {
            return ABSENT;
        }
        return intact(lk.sequence, lk.kind, lk.copyValue());
    }

    /** Versions of {@link #KEY} over all segments of {@code v}, each checked as {@link #read} does; -1 if one is corrupt. */
    public static int versions(MemStoreView v) {
        return countVersions(v.iterators());
    }

    /** As {@link #versions(MemStoreView)} for segments (a MemStore snapshot being flushed). */
    public static int versions(List<Segment> segments) {
        List<InternalIterator> its = new ArrayList<>();
        for (Segment s : segments) {
            its.add(s.iterator());
        }
        return countVersions(its);
    }

    private static int countVersions(List<InternalIterator> its) {
        int n = 0;
        boolean corrupt = false;
        for (InternalIterator it : its) {
            try (it) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    if (Arrays.equals(it.key(), KEY)) {
                        n++;
                        corrupt |= intact(it.sequence(), it.kind(), it.value()) == CORRUPT;
                    }
                }
            }
        }
        return corrupt ? CORRUPT : n;
    }

    private static int intact(long seq, int kind, byte[] value) {
        if (kind != InternalKeys.KIND_PUT || !Arrays.equals(value, value(seq))) {
            return CORRUPT;
        }
        return (int) seq;
    }

    /**
     * Closes the MemStore and returns the chunks its pool still counts as held by segments: zero unless a
     * reference was leaked (one too few releases). One too many throws from the release itself.
     */
    public long closeAndCountChunks() {
        store.close();
        return store.stats().pool.chunksInUse();
    }

    /** Off-heap bytes the pool still has from the allocator after {@link #closeAndCountChunks}: zero unless leaked. */
    public long offHeapBytesLeft() {
        return store.stats().pool.offHeapBytes();
    }
}
