package io.bellows.engine.internal.memstore;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a MemStore needs from its engine: the read points redundancy elimination must keep readable, a
 * pool thread for in-memory flattening and compaction (writers never run it), counters, and a hook
 * called when the oldest sequence held in memory may have advanced (so the engine can release logs).
 */
public final class MemStoreContext {
    private final LongSupplier publishedSequence;
    private final Supplier<long[]> snapshotSequences;
    private final Executor executor;
    private final MemStoreCounters counters;
    private final Runnable minSequenceAdvanced;

    /**
     * @param publishedSequence the last sequence readers can see
     * @param snapshotSequences live snapshot sequences, ascending
     * @param executor runs in-memory compactions
     * @param minSequenceAdvanced called (on the compaction thread) after a compaction dropped versions
     */
    public MemStoreContext(LongSupplier publishedSequence, Supplier<long[]> snapshotSequences, Executor executor,
            MemStoreCounters counters, Runnable minSequenceAdvanced) {
        this.publishedSequence = Objects.requireNonNull(publishedSequence, "publishedSequence");
        this.snapshotSequences = Objects.requireNonNull(snapshotSequences, "snapshotSequences");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.counters = Objects.requireNonNull(counters, "counters");
        this.minSequenceAdvanced = Objects.requireNonNull(minSequenceAdvanced, "minSequenceAdvanced");
    }

    long publishedSequence() {
        return publishedSequence.getAsLong();
    }

    long[] snapshotSequences() {
        return snapshotSequences.get();
    }

    Executor executor() {
        return executor;
    }

    MemStoreCounters counters() {
        return counters;
    }

    void minSequenceAdvanced() {
        minSequenceAdvanced.run();
    }
}
