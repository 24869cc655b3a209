package io.bellows.engine.memstore;

import io.bellows.engine.EngineOptions;

/** Creates the MemStore an engine's options ask for. */
public final class MemStores {
    private MemStores() {}

    public static MemStore create(EngineOptions options) {
        switch (options.inMemoryCompaction()) {
            case NONE:
                return new DefaultMemStore(options.memstoreSize());
            default:
                throw new IllegalArgumentException("in-memory compaction " + options.inMemoryCompaction()
                        + " is not available");
        }
    }
}
