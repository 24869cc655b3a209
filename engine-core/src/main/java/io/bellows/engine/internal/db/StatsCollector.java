package io.bellows.engine.internal.db;

import io.bellows.engine.EngineStats;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreStats;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;
import java.util.ArrayList;
import java.util.List;

/** Reads the engine's counters, MemStore and current version into one {@link EngineStats} value. */
final class StatsCollector {
    private final EngineCounters counters;
    private final MemStoreCounters memstoreCounters;
    private final MemStore memstore;
    private final VersionSet versions;
    private final FileSystem fs;
    private final CompactionScheme scheme;

    StatsCollector(EngineCounters counters, MemStoreCounters memstoreCounters, MemStore memstore, VersionSet versions,
            FileSystem fs, CompactionScheme scheme) {
        this.counters = counters;
        this.memstoreCounters = memstoreCounters;
        this.memstore = memstore;
        this.versions = versions;
        this.fs = fs;
        this.scheme = scheme;
    }

    EngineStats collect() {
        Version v = versions.acquireCurrent();
        MemStoreStats ms = memstore.stats();
        try {
            int n = v.numLevels();
            List<EngineStats.Level> levels = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                levels.add(new EngineStats.Level(i, v.files(i).size(), v.levelBytes(i)));
            }
            return new EngineStats(
                    new EngineStats.Io(counters.userBytes.sum(), counters.walBytes.sum(),
                            counters.flushBytesWritten.sum(), counters.compactionBytesRead.sum(),
                            counters.compactionBytesWritten.sum(), fs.tableIoMode()),
                    new EngineStats.Reads(counters.gets.sum(), counters.tablesProbed.sum(), counters.blockReads.sum(),
                            counters.blockCacheHits.sum(), counters.filterBlockReads.sum(),
                            counters.bloomNegatives.sum()),
                    new EngineStats.Background(counters.flushes.sum(), counters.compactions.sum(),
                            counters.backgroundErrors.sum(), counters.stalls.sum(), counters.stallNanos.sum(),
                            scheme.pendingCompactionBytes(v)),
                    new EngineStats.MemStore(memstore.dataSize(), memstore.heapSize(), ms.offHeapBytes,
                            new EngineStats.Segments(ms.skiplistDataBytes, ms.skiplistHeapBytes, ms.skiplistEntries),
                            new EngineStats.Segments(ms.flatDataBytes, ms.flatHeapBytes, ms.flatEntries),
                            new EngineStats.Segments(ms.serializedDataBytes, ms.serializedHeapBytes,
                                    ms.serializedEntries),
                            ms.pipelineSegments, memstoreCounters.inMemoryFlushes.sum(),
                            memstoreCounters.flattens.sum(), memstoreCounters.merges.sum(),
                            memstoreCounters.compactions.sum(), memstoreCounters.aborted.sum(),
                            memstoreCounters.bytesEliminated.sum(), ms.uniqueness, ms.throttle,
                            ms.pool.chunksInUse(), ms.pool.chunksFree(), ms.pool.offHeapBytes()),
                    new EngineStats.Levels(levels),
                    versions.lastSequence(), counters.recovery, scheme.figures());
        } finally {
            v.release();
        }
    }
}
