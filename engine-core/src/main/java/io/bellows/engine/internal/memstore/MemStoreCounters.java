package io.bellows.engine.internal.memstore;

import java.util.concurrent.atomic.LongAdder;

/** Running counts of in-memory work, kept by the engine across MemStore generations and reported in stats. */
public final class MemStoreCounters {
    /** Active segments made immutable and pushed into the pipeline. */
    public final LongAdder inMemoryFlushes = new LongAdder();
    /** Skiplist indices replaced by flat ones. */
    public final LongAdder flattens = new LongAdder();
    /** Pipeline indices merged into one, keeping every version. */
    public final LongAdder merges = new LongAdder();
    /** Pipelines compacted into one segment, dropping versions no reader can see. */
    public final LongAdder compactions = new LongAdder();
    /** Flattens, merges and compactions given up because a disk flush took the pipeline meanwhile. */
    public final LongAdder aborted = new LongAdder();
    /** Key and value bytes of versions dropped in memory, which never reach disk. */
    public final LongAdder bytesEliminated = new LongAdder();
    public final LongAdder cellsEliminated = new LongAdder();
    /** Times the engine released WAL files before a disk flush because versions were dropped in memory. */
    public final LongAdder logsReleasedEarly = new LongAdder();
}
