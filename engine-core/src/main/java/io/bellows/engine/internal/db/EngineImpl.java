package io.bellows.engine.internal.db;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.SchemeRegistry;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreContext;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStores;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.SharedCaches;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.trace.TraceWriter;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.BatchAccess;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine: a facade that opens a store and hands each call to the job that does it. Writes go
 * through the {@link WriteQueue} (group commit into the WAL, then the MemStore, with the
 * {@link StallController}'s backpressure); reads through the {@link ReadPath}; full MemStores are
 * flushed by the {@link FlushScheduler}, tables compacted by the {@link CompactionScheduler}, WAL files
 * released by {@link WalRetention} and unneeded files deleted by the {@link FileSweeper}. {@link Recovery}
 * runs once at open. The jobs coordinate under {@link EngineState}'s lock; readers take no lock.
 */
public final class EngineImpl implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(EngineImpl.class);

    private final EngineOptions options;
    private final EngineState state;
    private final EngineContext ctx;
    private final BackgroundThreads threads = new BackgroundThreads();
    private final Closeable dirLock;
    private final ObsoleteFiles obsoleteFiles;
    private final FileSweeper sweeper;
    private final WalRetention walRetention;
    private final CompactionScheduler compactions;
    private final FlushScheduler flushes;
    private final WriteQueue writes;
    private final ReadPath reads;
    private final StatsCollector statsCollector;

    /** Opens a store on the default file system (direct I/O for tables where supported). */
    public static Engine open(Path dir, EngineOptions options) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("cannot open " + dir + ": it is not a directory (a store is a directory)");
        }
        if (!options.createIfMissing() && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
        }
        try {
            return open(dir, options, DefaultFileSystem.forDirectory(dir, options.directIo()));
        } catch (IOException e) {
            throw IoErrors.wrap("cannot open " + dir, e);
        }
    }

    /** Opens a store on the given file system (tests use in-memory, crashable and faulty ones). */
    public static EngineImpl open(Path dir, EngineOptions options, FileSystem fs) {
        try {
            return new EngineImpl(dir, options, fs);
        } catch (IOException e) {
            throw IoErrors.wrap("cannot open " + dir, e);
        }
    }

    private EngineImpl(Path dir, EngineOptions options, FileSystem fs) throws IOException {
        this.options = options;
        this.state = new EngineState(dir);
        CompactionScheme scheme = SchemeRegistry.create(options);
        EngineCounters counters = new EngineCounters();
        MemStoreCounters memstoreCounters = new MemStoreCounters();
        SnapshotList snapshots = new SnapshotList();
        VersionSet versions = new VersionSet(dir, fs, scheme.numLevels(options), scheme, this::scheduleSweep);
        MemStore memstore = MemStores.create(options, new MemStoreContext(versions::lastSequence,
                snapshots::sequences, threads.inMemory, memstoreCounters, this::scheduleWalTruncation));
        if (scheme.countsUpdates()) {
            memstore.countUpdates();
        }
        TableFormats formats = new TableFormats(options.sharedCache() != null
                ? SharedCaches.partition(options.sharedCache()) : new BlockCache(options.blockCacheSize()), counters, fs);
        scheme.registerTableFormats(formats, counters);
        TableCache tables = new TableCache(dir, fs, formats);
        this.ctx = new EngineContext(dir, options, fs, counters, memstoreCounters, scheme, versions, memstore, tables,
                snapshots);
        this.obsoleteFiles = new ObsoleteFiles(dir, fs, versions, ctx.pendingOutputs, tables, scheme);
        this.sweeper = new FileSweeper(obsoleteFiles, threads,
                state);
        this.walRetention = new WalRetention(state, ctx, threads, sweeper);
        this.compactions = new CompactionScheduler(state, ctx, threads, sweeper);
        FlushWriter flushWriter = new FlushWriter(ctx);
        this.flushes = new FlushScheduler(state, ctx, flushWriter, walRetention, threads, sweeper, compactions);
        this.writes = new WriteQueue(state, ctx, new StallController(state, ctx, flushes, compactions), walRetention);
        this.reads = new ReadPath(state, ctx, compactions, this);
        this.statsCollector = new StatsCollector(counters, memstoreCounters, memstore, versions, fs, scheme, tables, dir);
        Closeable lock = null;
        boolean ok = false;
        try {
            if (!options.createIfMissing() && !versions.exists()) {
                // Checked again under the lock by Recovery; here so that a refused open creates no directory.
                throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
            }
            fs.createDirectories(dir);
            lock = fs.lock(dir.resolve(FileNames.LOCK));
            walRetention.attach(new Recovery(ctx, flushWriter).run());
            if (options.preloadTableThreads() > 0) {
                tables.preload(versions.current(), options.preloadTableThreads());
            }
            sweeper.sweepAtOpen();
            ok = true;
        } finally {
            if (!ok) {
                walRetention.closeQuietly();
                try {
                    versions.close();
                } catch (IOException ignored) {
                    // already failing
                }
                tables.close();
                threads.inMemory.shutdownNow();
                memstore.close();
                if (lock != null) {
                    lock.close();
                }
            }
        }
        this.dirLock = lock;
        threads.start(compactions.maxCompactions());
        long syncMs = options.walSyncInterval().toMillis();
        Wal wal = walRetention.wal();
        threads.scheduler().scheduleWithFixedDelay(wal::backgroundSync, syncMs, syncMs, TimeUnit.MILLISECONDS);
        compactions.scheduleLocked();
        if (options.traceFile() != null) {
            startTrace(options.traceFile(), options.traceOptions());
        }
        ctx.budget.join(writes::switchForBudget);
    }

    private void scheduleSweep() {
        // Called by the version set, which exists before the sweeper does; it installs nothing until open.
        if (sweeper != null) {
            sweeper.schedule();
        }
    }

    private void scheduleWalTruncation() {
        if (walRetention != null) {
            walRetention.scheduleTruncation();
        }
    }

    // ---------------------------------------------------------------- writes

    /** Latency timers, one set per registry the metrics were bound to; none until then (docs: OpTimers). */
    private volatile OpTimers[] timers = OpTimers.NONE;
    /** The trace being recorded, or null: an untraced call pays one volatile read for it. */
    private volatile TraceWriter trace;

    @Override
    public void put(byte[] key, byte[] value, WriteOptions options) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        TraceWriter tr = trace;
        long traceStart = tr == null ? 0 : System.nanoTime();
        OpTimers[] t = timers;
        long t0 = t.length == 0 ? 0 : System.nanoTime();
        // The thread's own batch, reused: a put allocates nothing before its MemStore cell.
        apply(writes.scratchBatch().put(key, value), options);
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.PUT, t0);
        }
        if (tr != null) {
            tr.put(traceStart, key, value);
        }
    }

    @Override
    public void delete(byte[] key, WriteOptions options) {
        Objects.requireNonNull(key, "key");
        TraceWriter tr = trace;
        long traceStart = tr == null ? 0 : System.nanoTime();
        OpTimers[] t = timers;
        long t0 = t.length == 0 ? 0 : System.nanoTime();
        apply(writes.scratchBatch().delete(key), options);
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.DELETE, t0);
        }
        if (tr != null) {
            tr.delete(traceStart, key);
        }
    }

    @Override
    public void write(WriteBatch batch, WriteOptions wo) {
        TraceWriter tr = trace;
        long traceStart = tr == null ? 0 : System.nanoTime();
        OpTimers[] t = timers;
        long t0 = t.length == 0 ? 0 : System.nanoTime();
        apply(batch, wo);
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.WRITE, t0);
        }
        if (tr != null && batch.count() > 0) {
            tr.write(traceStart, batch);
        }
    }

    private void apply(WriteBatch batch, WriteOptions wo) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(wo, "options");
        checkOpen();
        if (BatchAccess.maxValueLength(batch) > options.maxValueLength()) {
            throw new IllegalArgumentException("value length " + BatchAccess.maxValueLength(batch) + " exceeds maxValueLength "
                    + options.maxValueLength() + " (EngineOptions.maxValueLength, at most "
                    + EngineOptions.MAX_VALUE_LENGTH_LIMIT + ")");
        }
        if (batch.count() == 0) {
            return;
        }
        writes.write(batch, wo.durability());
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] get(byte[] key, ReadOptions ro) {
        OpTimers[] t = timers;
        TraceWriter tr = trace;
        if (t.length == 0 && tr == null) {
            return reads.get(key, ro);
        }
        long t0 = System.nanoTime();
        byte[] v = reads.get(key, ro);
        recordGet(t, tr, t0, key);
        return v;
    }

    @Override
    public int get(byte[] key, byte[] dst, int off, ReadOptions ro) {
        OpTimers[] t = timers;
        TraceWriter tr = trace;
        if (t.length == 0 && tr == null) {
            return reads.get(key, dst, off, ro);
        }
        long t0 = System.nanoTime();
        int n = reads.get(key, dst, off, ro);
        recordGet(t, tr, t0, key);
        return n;
    }

    @Override
    public int get(byte[] key, ByteBuffer dst, ReadOptions ro) {
        OpTimers[] t = timers;
        TraceWriter tr = trace;
        if (t.length == 0 && tr == null) {
            return reads.get(key, dst, ro);
        }
        long t0 = System.nanoTime();
        int n = reads.get(key, dst, ro);
        recordGet(t, tr, t0, key);
        return n;
    }

    /** Times a get into the bound registries and traces it, as the array-returning get does. */
    private static void recordGet(OpTimers[] t, TraceWriter tr, long t0, byte[] key) {
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.GET, t0);
        }
        if (tr != null) {
            tr.get(t0, key);
        }
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys, ReadOptions ro) {
        OpTimers[] t = timers;
        TraceWriter tr = trace;
        long t0 = t.length == 0 && tr == null ? 0 : System.nanoTime();
        List<byte[]> values = reads.multiGet(keys, ro);
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.MULTI_GET, t0);
        }
        if (tr != null) {
            tr.multiGet(t0, keys);
        }
        return values;
    }

    @Override
    public Snapshot snapshot() {
        return reads.snapshot();
    }

    @Override
    public Cursor cursor(ReadOptions ro) {
        OpTimers[] t = timers;
        TraceWriter tr = trace;
        long t0 = t.length == 0 && tr == null ? 0 : System.nanoTime();
        Cursor c = reads.cursor(ro);
        if (t.length != 0) {
            OpTimers.record(t, OpTimers.CURSOR, t0);
        }
        return tr == null ? c : tr.cursor(t0, c, ro);
    }

    @Override
    public synchronized void startTrace(Path file, TraceOptions traceOptions) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(traceOptions, "options");
        checkOpen();
        if (trace != null) {
            throw new IllegalStateException("a trace is already being recorded to " + trace.file());
        }
        try {
            trace = TraceWriter.start(file, traceOptions);
        } catch (IOException e) {
            throw IoErrors.wrap("cannot start a trace in " + file, e);
        }
    }

    @Override
    public synchronized void endTrace() {
        TraceWriter tr = trace;
        trace = null;
        if (tr != null) {
            try {
                tr.close();
            } catch (IOException e) {
                throw IoErrors.wrap("closing trace " + tr.file() + " failed", e);
            }
        }
    }

    /** Starts timing calls into {@code registry} too (metrics bound to it). */
    synchronized void addTimers(OpTimers t) {
        OpTimers[] now = Arrays.copyOf(timers, timers.length + 1);
        now[now.length - 1] = t;
        timers = now;
    }

    // ---------------------------------------------------------------- maintenance

    @Override
    public void flush() {
        checkOpen();
        writes.switchMemStore();
        flushes.awaitFlushed();
    }

    @Override
    public void checkpoint(Path target) {
        Objects.requireNonNull(target, "target");
        checkOpen();
        // Writes made without a WAL are in memory only: a flush puts them where the checkpoint copies. A
        // snapshot being flushed may hold some too: wait for it.
        boolean unlogged;
        state.lock.lock();
        try {
            unlogged = walRetention.hasUnloggedWrites();
        } finally {
            state.lock.unlock();
        }
        if (unlogged) {
            flush();
        } else {
            flushes.awaitFlushed();
        }
        try {
            Checkpoints.make(ctx, obsoleteFiles, sweeper, target);
        } catch (IOException e) {
            throw IoErrors.wrap("checkpoint to " + target + " failed", e);
        }
    }

    @Override
    public void compactRange(byte[] from, byte[] to) {
        checkOpen();
        flush();
        compactions.compactRange(from, to);
    }

    @Override
    public EngineStats stats() {
        checkOpen();
        try {
            return statsCollector.collect();
        } catch (IOException e) {
            throw new EngineIOException("reading the tables' data sizes for stats: " + e.getMessage(), e);
        }
    }

    @Override
    public MeterBinder metrics(String name) {
        return new EngineMetrics(this, name);
    }

    /** Counters for the metrics binder, which must not go through the closed-check of stats(). */
    EngineCounters counters() {
        return ctx.counters;
    }

    CompactionScheme scheme() {
        return ctx.scheme;
    }

    /** The table cache (tests read tables through it). */
    TableCache tables() {
        return ctx.tables;
    }

    MemStoreCounters memstoreCounters() {
        return ctx.memstoreCounters;
    }

    /** Whether no compaction runs and none is due (tests). */
    boolean compactionIdle() {
        return compactions.idle();
    }

    /** Deletes obsolete files now, as the sweep queued after a compaction would (tests). */
    void sweepObsoleteFiles() throws IOException {
        obsoleteFiles.sweep(false);
    }

    /** Live snapshots (tests). */
    int snapshotCount() {
        return ctx.snapshots.size();
    }

    MemStore memstore() {
        return ctx.memstore;
    }

    VersionSet versions() {
        return ctx.versions;
    }

    void checkOpen() {
        state.checkOpen();
    }

    @Override
    public void close() {
        if (!state.markClosed()) {
            return;
        }
        // From here new writes are refused (checkOpen, and the queue for any that passed it). The writes
        // already queued finish, or give up if they would have to wait for background work; only then is
        // what they wrote without a WAL flushed, so no write that returned normally is left out.
        state.closeRequested = true;
        ctx.budget.leave();
        boolean flushUnlogged;
        state.lock.lock();
        try {
            state.backgroundChanged.signalAll();
            while (!writes.isEmpty()) {
                writes.awaitDrained(10);
            }
            flushUnlogged = walRetention.hasUnloggedWrites();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            flushUnlogged = true;
        } finally {
            state.lock.unlock();
        }
        if (flushUnlogged) {
            try {
                writes.switchMemStoreAtClose();
                flushes.awaitFlushed();
            } catch (RuntimeException e) {
                LOG.error("flush of unlogged (Durability.NONE) writes at close failed; they are lost", e);
            }
        }
        state.lock.lock();
        try {
            state.closing = true;
            state.backgroundChanged.signalAll();
            writes.wakeAll();
            // A manual compaction finishes the level it is compacting.
            while (!writes.isEmpty() || compactions.manualRunning()) {
                writes.awaitDrained(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            state.lock.unlock();
        }
        threads.shutdownAndAwait();
        ctx.finisher.close();
        try {
            endTrace();
        } catch (RuntimeException e) {
            LOG.error("ending the trace at close failed", e);
        }
        walRetention.close();
        try {
            ctx.versions.close();
        } catch (IOException e) {
            LOG.error("closing the manifest failed", e);
        }
        ctx.tables.close();
        ctx.memstore.close();
        try {
            dirLock.close();
        } catch (IOException e) {
            LOG.error("releasing the directory lock failed", e);
        }
    }

    @Override
    public String toString() {
        return "Bellows[" + ctx.dir + ", " + options.compaction() + "/" + options.inMemoryCompaction() + "]";
    }
}
