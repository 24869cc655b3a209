package io.bellows.engine.internal.db;

import io.bellows.engine.EngineStats;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreStats;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;

/** Reads the engine's counters, MemStore and current version into one {@link EngineStats} value. */
final class StatsCollector {
    private final EngineCounters counters;
    private final MemStoreCounters memstoreCounters;
    private final MemStore memstore;
    private final VersionSet versions;
    private final FileSystem fs;

    StatsCollector(EngineCounters counters, MemStoreCounters memstoreCounters, MemStore memstore, VersionSet versions,
            FileSystem fs) {
        this.counters = counters;
        this.memstoreCounters = memstoreCounters;
        this.memstore = memstore;
        this.versions = versions;
        this.fs = fs;
    }

    EngineStats collect() {
        Version v = versions.acquireCurrent();
        MemStoreStats ms = memstore.stats();
        try {
            int n = v.numLevels();
            long[] bytes = new long[n];
            int[] count = new int[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = v.levelBytes(i);
                count[i] = v.files(i).size();
            }
            return EngineStats.builder()
                    .bytes(counters.userBytes.sum(), counters.walBytes.sum(), counters.flushBytesWritten.sum(),
                            counters.compactionBytesRead.sum(), counters.compactionBytesWritten.sum())
                    .reads(counters.gets.sum(), counters.tablesProbed.sum(), counters.blockReads.sum(),
                            counters.blockCacheHits.sum(), counters.bloomNegatives.sum())
                    .filterBlockReads(counters.filterBlockReads.sum())
                    .stalls(counters.stalls.sum(), counters.stallNanos.sum())
                    .background(counters.flushes.sum(), counters.compactions.sum(), counters.backgroundErrors.sum())
                    .memstore(memstore.dataSize(), memstore.heapSize())
                    .inMemory(memstoreCounters.inMemoryFlushes.sum(), memstoreCounters.flattens.sum(),
                            memstoreCounters.merges.sum(), memstoreCounters.compactions.sum(),
                            memstoreCounters.aborted.sum(), memstoreCounters.bytesEliminated.sum())
                    .memstoreSegments(ms.skiplistDataBytes, ms.skiplistHeapBytes, ms.skiplistEntries, ms.flatDataBytes,
                            ms.flatHeapBytes, ms.flatEntries, ms.pipelineSegments, ms.uniqueness, ms.throttle)
                    .serializedSegments(ms.serializedDataBytes, ms.serializedHeapBytes, ms.serializedEntries)
                    .offHeap(ms.offHeapBytes, ms.pool.chunksInUse(), ms.pool.chunksFree(), ms.pool.offHeapBytes())
                    .levels(bytes, count)
                    .lastSequence(versions.lastSequence())
                    .tableIoMode(fs.tableIoMode())
                    .build();
        } finally {
            v.release();
        }
    }
}
