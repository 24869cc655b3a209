package io.bellows.engine.internal.db;

import io.bellows.engine.EngineStats;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreStats;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Reads the engine's counters, MemStore and current version into one {@link EngineStats} value. */
final class StatsCollector {
    private final EngineCounters counters;
    private final MemStoreCounters memstoreCounters;
    private final MemStore memstore;
    private final VersionSet versions;
    private final FileSystem fs;
    private final CompactionScheme scheme;
    private final TableCache tables;
    private final Path dir;
    /**
     * The engine's table formats with counters and caches of their own: a table no read has opened yet is
     * opened through these for its figure and closed, so that stats() moves no read counter and fills no cache.
     */
    private final TableFormats quiet;
    /** Each live table's recorded figures, once read. */
    private final Map<Long, Recorded> recorded = new ConcurrentHashMap<>();

    /** What a table recorded when it was written: {@link OpenTable#userDataBytes}, {@link OpenTable#deletions}. */
    private record Recorded(long userDataBytes, long deletions) {}

    StatsCollector(EngineCounters counters, MemStoreCounters memstoreCounters, MemStore memstore, VersionSet versions,
            FileSystem fs, CompactionScheme scheme, TableCache tables, Path dir) {
        this.tables = tables;
        this.dir = dir;
        EngineCounters own = new EngineCounters();
        this.quiet = new TableFormats(new BlockCache(0), own, fs);
        scheme.registerTableFormats(quiet, own);
        this.counters = counters;
        this.memstoreCounters = memstoreCounters;
        this.memstore = memstore;
        this.versions = versions;
        this.fs = fs;
        this.scheme = scheme;
    }

    /** One level's figures: its tables' entries from the manifest, and what each table recorded (read once). */
    private EngineStats.Level level(int level, Version v) throws IOException {
        List<FileMeta> files = v.files(level);
        long userData = 0;
        long entries = 0;
        long deletions = 0;
        for (FileMeta f : files) {
            Recorded r = recorded.get(f.number);
            if (r == null) {
                r = read(f.number);
                recorded.put(f.number, r);
            }
            userData = userData < 0 || r.userDataBytes < 0 ? -1 : userData + r.userDataBytes;
            deletions = deletions < 0 || r.deletions < 0 ? -1 : deletions + r.deletions;
            entries += f.entries;
        }
        return new EngineStats.Level(level, files.size(), v.levelBytes(level), userData, entries, deletions);
    }

    private Recorded read(long number) throws IOException {
        OpenTable open = tables.ifOpen(number);
        if (open != null) {
            return new Recorded(open.userDataBytes(), open.deletions());
        }
        Path path = FileNames.table(dir, number);
        ReadableFile file = fs.openTable(path);
        OpenTable r;
        try {
            r = quiet.open(file, path, number);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        try (r) {
            return new Recorded(r.userDataBytes(), r.deletions());
        }
    }

    /** Forgets the figures of tables no longer in {@code v}. */
    private void prune(Version v) {
        Set<Long> live = new HashSet<>();
        for (int i = 0; i < v.numLevels(); i++) {
            for (FileMeta f : v.files(i)) {
                live.add(f.number);
            }
        }
        recorded.keySet().retainAll(live);
    }

    EngineStats collect() throws IOException {
        Version v = versions.acquireCurrent();
        MemStoreStats ms = memstore.stats();
        try {
            prune(v);
            int n = v.numLevels();
            List<EngineStats.Level> levels = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                levels.add(level(i, v));
            }
            return new EngineStats(
                    new EngineStats.Io(counters.userBytes.sum(), counters.walBytes.sum(),
                            counters.flushBytesWritten.sum(), counters.compactionBytesRead.sum(),
                            counters.compactionBytesWritten.sum(), fs.tableIoMode(), versions.manifestBytesWritten()),
                    new EngineStats.Reads(counters.gets.sum(), counters.tablesProbed.sum(), counters.blockReads.sum(),
                            counters.blockCacheHits.sum(), counters.filterBlockReads.sum(),
                            counters.bloomNegatives.sum()),
                    new EngineStats.Background(counters.flushes.sum(), counters.compactions.sum(),
                            counters.backgroundErrors.sum(), counters.stalls.sum(), counters.stallNanos.sum(),
                            scheme.pendingCompactionBytes(v), counters.compactionsRunning.get(),
                            new EngineStats.StallCauses(counters.stallDelayNanos.sum(), counters.stallStopNanos.sum(),
                                    counters.stallFlushNanos.sum(), counters.stallMemoryNanos.sum())),
                    new EngineStats.MemStore(memstore.dataSize(), memstore.heapSize(), ms.offHeapBytes,
                            new EngineStats.Segments(ms.skiplistDataBytes, ms.skiplistHeapBytes, ms.skiplistEntries,
                                    ms.skiplistDeletions),
                            new EngineStats.Segments(ms.flatDataBytes, ms.flatHeapBytes, ms.flatEntries,
                                    ms.flatDeletions),
                            new EngineStats.Segments(ms.serializedDataBytes, ms.serializedHeapBytes,
                                    ms.serializedEntries, ms.serializedDeletions),
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
