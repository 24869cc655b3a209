package io.bellows.engine.internal.db;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.io.TableFinisher;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.version.VersionSet;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The parts of one open engine that its jobs share, fixed for the engine's life. Each part is
 * thread-safe on its own; coordination between them is the jobs' business, under {@link EngineState}.
 */
final class EngineContext {
    final Path dir;
    final EngineOptions options;
    final FileSystem fs;
    final EngineCounters counters;
    final MemStoreCounters memstoreCounters;
    final CompactionScheme scheme;
    final VersionSet versions;
    final MemStore memstore;
    final TableCache tables;
    final SnapshotList snapshots;
    final Events events;
    /** The MemStore's share of a WriteBufferManager's budget, if the options give one. */
    final BudgetShare budget;
    /** Tables being written by flushes and compactions, not yet in a version: the sweep leaves them. */
    final Set<Long> pendingOutputs = ConcurrentHashMap.newKeySet();
    /** Syncs and closes the table files flushes and compactions write (closed with the engine). */
    final TableFinisher finisher = new TableFinisher();
    private final TableOutputs.Format tableFormat;

    EngineContext(Path dir, EngineOptions options, FileSystem fs, EngineCounters counters,
            MemStoreCounters memstoreCounters, CompactionScheme scheme, VersionSet versions, MemStore memstore,
            TableCache tables, SnapshotList snapshots) {
        this.dir = dir;
        this.counters = counters;
        this.memstoreCounters = memstoreCounters;
        this.options = options;
        this.fs = fs;
        this.scheme = scheme;
        this.versions = versions;
        this.memstore = memstore;
        this.tables = tables;
        this.snapshots = snapshots;
        this.events = new Events(options.listeners());
        this.budget = new BudgetShare(options.writeBufferManager(), memstore);
        this.tableFormat = new TableOutputs.Format(options.blockSize(), options.blockRestartInterval(),
                options.bloomBitsPerKey());
    }

    /**
     * What a flush or compaction writing to {@code level} needs to write tables (SSTables with that
     * level's codec), counting the bytes it writes in {@code bytesWritten}.
     */
    TableWriteContext writeContext(LongAdder bytesWritten, int level) {
        TableOutputs.Format format = tableFormat.withCompression(options.compression(level, scheme.numLevels(options)));
        return new TableWriteContext(dir, fs, versions, format, pendingOutputs, tables, bytesWritten, finisher);
    }
}
