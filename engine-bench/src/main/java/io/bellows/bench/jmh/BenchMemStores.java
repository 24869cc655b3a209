package io.bellows.bench.jmh;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreContext;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStores;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * A MemStore outside an engine, with what the engine would give it: one background thread for
 * in-memory flushes and compactions (as the engine's {@code bellows-inmemory} thread), no live
 * snapshots, and the benchmark's own sequence as the published one.
 */
final class BenchMemStores implements AutoCloseable {
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bench-inmemory");
        t.setDaemon(true);
        return t;
    });
    final MemStore store;

    BenchMemStores(EngineOptions options, LongSupplier publishedSequence) {
        store = MemStores.create(options, new MemStoreContext(publishedSequence, () -> new long[0], executor,
                new MemStoreCounters(), () -> {}));
    }

    @Override
    public void close() {
        store.close();
        executor.shutdownNow();
    }
}
