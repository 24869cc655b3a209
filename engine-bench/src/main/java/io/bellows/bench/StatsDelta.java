package io.bellows.bench;

import io.bellows.engine.EngineStats;

/**
 * The engine's counters between two {@link EngineStats} of one store: what a workload itself wrote,
 * flushed, compacted, probed and stalled, rather than running totals since the store was opened.
 * Figures that describe the state (levels, MemStore memory, scheme figures) are the later ones.
 */
final class StatsDelta {
    private StatsDelta() {}

    static EngineStats between(EngineStats before, EngineStats after) {
        EngineStats.Io a = after.io();
        EngineStats.Io b = before.io();
        EngineStats.Io io = new EngineStats.Io(a.userBytesWritten() - b.userBytesWritten(),
                a.walBytesWritten() - b.walBytesWritten(), a.flushBytesWritten() - b.flushBytesWritten(),
                a.compactionBytesRead() - b.compactionBytesRead(),
                a.compactionBytesWritten() - b.compactionBytesWritten(), a.tableIoMode(),
                a.manifestBytesWritten() - b.manifestBytesWritten());
        EngineStats.Reads ra = after.reads();
        EngineStats.Reads rb = before.reads();
        EngineStats.Reads reads = new EngineStats.Reads(ra.gets() - rb.gets(), ra.tablesProbed() - rb.tablesProbed(),
                ra.blockReads() - rb.blockReads(), ra.blockCacheHits() - rb.blockCacheHits(),
                ra.filterBlockReads() - rb.filterBlockReads(), ra.bloomNegatives() - rb.bloomNegatives());
        EngineStats.Background ga = after.background();
        EngineStats.Background gb = before.background();
        EngineStats.Background background = new EngineStats.Background(ga.flushes() - gb.flushes(),
                ga.compactions() - gb.compactions(), ga.errors() - gb.errors(), ga.stalls() - gb.stalls(),
                ga.stallNanos() - gb.stallNanos(), ga.pendingCompactionBytes(), ga.runningCompactions(),
                ga.stallCauses().minus(gb.stallCauses()));
        EngineStats.MemStore ma = after.memstore();
        EngineStats.MemStore mb = before.memstore();
        EngineStats.MemStore memstore = new EngineStats.MemStore(ma.dataBytes(), ma.heapBytes(), ma.offHeapBytes(),
                ma.skiplist(), ma.flat(), ma.serialized(), ma.pipelineSegments(),
                ma.inMemoryFlushes() - mb.inMemoryFlushes(), ma.inMemoryFlattens() - mb.inMemoryFlattens(),
                ma.inMemoryMerges() - mb.inMemoryMerges(), ma.inMemoryCompactions() - mb.inMemoryCompactions(),
                ma.inMemoryAborted() - mb.inMemoryAborted(),
                ma.inMemoryBytesEliminated() - mb.inMemoryBytesEliminated(), ma.adaptiveUniqueness(),
                ma.adaptiveThrottle(), ma.chunksInUse(), ma.chunksFree(), ma.chunkPoolOffHeapBytes());
        return new EngineStats(io, reads, background, memstore, after.levels(), after.lastSequence(), after.recovery(),
                after.scheme());
    }
}
