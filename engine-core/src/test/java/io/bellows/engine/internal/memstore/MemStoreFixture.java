package io.bellows.engine.internal.memstore;

import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/** A compacting MemStore wired to a hand-run executor and settable read points. */
final class MemStoreFixture {
    /** Runs queued tasks only when the test says so. */
    static final class ManualExecutor implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queue.add(r);
        }

        /** Runs queued tasks (and tasks they queue) until none is left; returns how many ran. */
        int runAll() {
            int n = 0;
            Runnable r;
            while ((r = poll()) != null) {
                r.run();
                n++;
            }
            return n;
        }

        synchronized Runnable poll() {
            return queue.poll();
        }
    }

    final AtomicLong published = new AtomicLong(Long.MAX_VALUE >>> 8);
    volatile long[] snapshots = new long[0];
    final MemStoreCounters counters = new MemStoreCounters();
    final AtomicLong minSequenceCallbacks = new AtomicLong();
    final ChunkPool pool;
    final CompactingMemStore store;

    MemStoreFixture(InMemoryCompaction policy, long flushSize, double activeFraction, int pipelineLimit,
            double threshold, ChunkPool pool, Executor executor) {
        this.pool = pool;
        MemStoreContext ctx = new MemStoreContext(published::get, () -> snapshots, executor, counters,
                minSequenceCallbacks::incrementAndGet);
        this.store = new CompactingMemStore(policy, flushSize, activeFraction, pipelineLimit, threshold,
                new OnHeapLayout(pool, true), ctx);
    }

    static byte[] b(String s) {
        return s.getBytes();
    }

    /** One single-entry write group. */
    void put(String key, long seq, String value) {
        add(b(key), seq, InternalKeys.KIND_PUT, b(value));
    }

    /** One single-entry write group. */
    void add(byte[] key, long seq, int kind, byte[] value) {
        store.add(key, seq, kind, value);
        store.endWrite();
    }

    /** The value of {@code key} at {@code seq}: null if absent, "<deleted>" for a tombstone. */
    static String read(MemStoreView v, String key, long seq) {
        Lookup lk = new Lookup();
        if (!v.get(b(key), seq, lk)) {
            return null;
        }
        return lk.kind == InternalKeys.KIND_DELETE ? "<deleted>" : new String(lk.copyValue());
    }

    String read(String key, long seq) {
        try (MemStoreView v = store.view()) {
            return read(v, key, seq);
        }
    }
}
