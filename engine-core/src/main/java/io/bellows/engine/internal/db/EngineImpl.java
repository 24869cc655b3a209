package io.bellows.engine.internal.db;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineClosedException;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.MemoryLimitException;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.compaction.flsm.FlsmScheme;
import io.bellows.engine.internal.compaction.leveled.LeveledScheme;
import io.bellows.engine.internal.compaction.trie.TrieScheme;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.MemStore;
import io.bellows.engine.internal.memstore.MemStoreContext;
import io.bellows.engine.internal.memstore.MemStoreCounters;
import io.bellows.engine.internal.memstore.MemStoreStats;
import io.bellows.engine.internal.memstore.MemStoreView;
import io.bellows.engine.internal.memstore.MemStores;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogReader;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine: write path (group commit into the WAL, then the MemStore), read path (MemStore view,
 * then the tables the scheme names), flushes and compactions in the background, and recovery.
 *
 * <p>Concurrency:
 * <ul>
 *   <li>Writers queue on {@link #lock}; the writer at the head (the leader) takes the queued batches
 *       into one group, appends them to the WAL as one record (one write, at most one force), inserts
 *       them into the MemStore and publishes the group's last sequence. Only the leader touches the WAL
 *       writer ({@link Wal}, shared with the background syncer) and switches MemStores.
 *   <li>Readers take a MemStore view, then a version, then the visible sequence, all without locks.
 *       Flushes install the new table's version before dropping the MemStore snapshot, so a reader
 *       always finds the data in one or the other.
 *   <li>Background work (one flush thread, {@code backgroundThreads - 1} compaction threads) is
 *       coordinated under {@link #lock}: the flush pending, the tables busy in compactions, the
 *       condition stalled writers wait on. In-memory flattening and compaction run on their own
 *       thread inside the MemStore; the engine only hears when versions were dropped, to release logs.
 * </ul>
 */
public final class EngineImpl implements Engine {
    private static final Logger LOG = LoggerFactory.getLogger(EngineImpl.class);
    /** Largest write group: big enough to amortize a sync, small enough to bound a follower's latency. */
    private static final long MAX_GROUP_BYTES = 1 << 20;
    private static final long STALL_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a write waiting for MemStore memory rechecks: views close without signalling. */
    private static final long MEMORY_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How long a write waits for MemStore memory before it is refused (before being logged). */
    private static final long MEMORY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long MAX_RETRY_DELAY_MS = 5_000;

    private final Path dir;
    private final EngineOptions options;
    private final FileSystem fs;
    private final Closeable dirLock;
    private final EngineCounters counters = new EngineCounters();
    private final CompactionScheme scheme;
    private final VersionSet versions;
    private final MemStore memstore;
    private final BlockCache blockCache;
    private final TableCache tables;
    private final SnapshotList snapshots = new SnapshotList();
    private final TableOutputs.Format tableFormat;
    private final ObsoleteFiles obsoleteFiles;
    private final MemStoreCounters memstoreCounters = new MemStoreCounters();
    private final StatsCollector statsCollector;
    /** Runs in-memory flattening and compaction of the MemStore; writers never wait for it. */
    private final ExecutorService inMemoryExecutor;
    /** Closed logs recovery would still replay; guarded by {@link #lock}. */
    private final LogRetention closedLogs = new LogRetention();
    private final AtomicBoolean walTruncationScheduled = new AtomicBoolean();

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a flush or compaction finishes, fails, or the engine closes. */
    private final Condition backgroundChanged = lock.newCondition();
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    /** Signalled when the writer queue empties, for close. */
    private final Condition writersDrained = lock.newCondition();
    private final Set<Long> busyTables = new HashSet<>();
    private final Set<Long> pendingOutputs = ConcurrentHashMap.newKeySet();
    private int runningCompactions;
    private boolean manualCompaction;
    /** System.nanoTime() before which no compaction is picked after a failure. */
    private long compactionRetryAtNanos;
    private int flushFailures;
    private int compactionFailures;
    /** Log number the pending flush's snapshot ends before; -1 when no flush is pending. */
    private long pendingFlushLog = -1;
    private List<Segment> pendingFlush;
    private boolean flushScheduled;
    /** Whether the active MemStore holds writes made with Durability.NONE. */
    private boolean unloggedWrites;
    /** Whether the MemStore snapshot being flushed holds writes made with Durability.NONE. */
    private boolean snapshotUnlogged;

    private Wal wal;

    private final ExecutorService flushExecutor;
    private final ExecutorService compactionExecutor;
    private final ScheduledExecutorService scheduler;
    private final int maxCompactions;
    private final AtomicBoolean sweepScheduled = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set first thing in close: waits that could last forever (failing flushes) give up. */
    private volatile boolean closeRequested;
    private volatile boolean closing;

    /** One queued write (or a forced MemStore switch when {@code batch} is null). */
    private static final class Writer {
        final WriteBatch batch;
        final Durability durability;
        final Condition cv;
        boolean done;
        Throwable error;

        Writer(WriteBatch batch, Durability durability, Condition cv) {
            this.batch = batch;
            this.durability = durability;
            this.cv = cv;
        }

        boolean logged() {
            return durability != Durability.NONE;
        }
    }

    /** Opens a store on the default file system (direct I/O for tables where supported). */
    public static Engine open(Path dir, EngineOptions options) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        if (!options.createIfMissing() && !java.nio.file.Files.isDirectory(dir)) {
            throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
        }
        try {
            return open(dir, options, DefaultFileSystem.forDirectory(dir, options.directIo()));
        } catch (IOException e) {
            throw new EngineIOException("cannot open " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Opens a store on the given file system (tests use in-memory, crashable and faulty ones). */
    public static EngineImpl open(Path dir, EngineOptions options, FileSystem fs) {
        try {
            return new EngineImpl(dir, options, fs);
        } catch (IOException e) {
            throw new EngineIOException("cannot open " + dir + ": " + e.getMessage(), e);
        }
    }

    private EngineImpl(Path dir, EngineOptions options, FileSystem fs) throws IOException {
        this.dir = dir;
        this.options = options;
        this.fs = fs;
        this.scheme = createScheme(options);
        this.versions = new VersionSet(dir, fs, scheme.numLevels(options), scheme, this::scheduleSweep);
        this.inMemoryExecutor = Executors.newSingleThreadExecutor(threads("bellows-inmemory"));
        this.memstore = MemStores.create(options, new MemStoreContext(versions::lastSequence, snapshots::sequences,
                inMemoryExecutor, memstoreCounters, this::scheduleWalTruncation));
        this.blockCache = new BlockCache(options.blockCacheSize());
        this.tables = new TableCache(dir, fs, blockCache, counters, options.trieFilterCacheSize());
        this.tableFormat = new TableOutputs.Format(options.blockSize(), options.blockRestartInterval(),
                options.bloomBitsPerKey());
        this.maxCompactions = Math.max(1, options.backgroundThreads() - 1);
        this.obsoleteFiles = new ObsoleteFiles(dir, fs, versions, pendingOutputs, tables);
        this.statsCollector = new StatsCollector(counters, memstoreCounters, memstore, versions, fs);
        fs.createDirectories(dir);
        this.dirLock = fs.lock(dir.resolve(FileNames.LOCK));
        boolean ok = false;
        try {
            recover();
            ok = true;
        } finally {
            if (!ok) {
                closeWalQuietly();
                try {
                    versions.close();
                } catch (IOException ignored) {
                    // already failing
                }
                tables.close();
                inMemoryExecutor.shutdownNow();
                memstore.close();
                dirLock.close();
            }
        }
        this.flushExecutor = Executors.newSingleThreadExecutor(threads("bellows-flush"));
        this.compactionExecutor = Executors.newFixedThreadPool(maxCompactions, threads("bellows-compaction"));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(threads("bellows-scheduler"));
        long syncMs = options.walSyncInterval().toMillis();
        scheduler.scheduleWithFixedDelay(wal::backgroundSync, syncMs, syncMs, TimeUnit.MILLISECONDS);
        lock.lock();
        try {
            maybeScheduleCompaction();
        } finally {
            lock.unlock();
        }
    }

    private static CompactionScheme createScheme(EngineOptions options) {
        CompactionStyle style = options.compaction();
        switch (style) {
            case LEVELED:
                return new LeveledScheme(options);
            case FLSM:
                return new FlsmScheme(options);
            case LSM_TRIE:
                return new TrieScheme(options);
            default:
                throw new IllegalArgumentException("compaction scheme " + style + " is not available");
        }
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    // ---------------------------------------------------------------- recovery

    private void recover() throws IOException {
        if (versions.exists()) {
            if (options.errorIfExists()) {
                throw new IllegalArgumentException("store " + dir + " already exists (errorIfExists is set)");
            }
            String recorded = versions.recover();
            if (!recorded.equals(options.compaction().name())) {
                throw new IllegalArgumentException("store " + dir + " was created with compaction scheme " + recorded
                        + " and cannot be opened with " + options.compaction()
                        + "; open it with compaction(" + recorded + ")");
            }
        } else {
            if (!options.createIfMissing()) {
                throw new IllegalArgumentException("store " + dir + " does not exist (createIfMissing is off)");
            }
            versions.create(options.compaction().name());
        }
        List<Long> logs = new ArrayList<>();
        for (String name : fs.list(dir)) {
            long n = FileNames.number(name, FileNames.LOG_SUFFIX);
            if (n >= 0) {
                versions.markFileNumberUsed(n);
                if (n >= versions.logNumber()) {
                    logs.add(n);
                }
            }
        }
        logs.sort(null);
        long maxSeq = versions.lastSequence();
        for (long n : logs) {
            maxSeq = Math.max(maxSeq, replayLog(n));
            versions.setLastSequence(maxSeq);
            if (memstore.shouldFlush()) {
                writeRecoveredTable(-1);
            }
        }
        versions.setLastSequence(maxSeq);
        long walNumber = versions.newFileNumber();
        wal = new Wal(dir, fs, walNumber);
        writeRecoveredTable(walNumber);
        obsoleteFiles.sweep(true);
    }

    /** Replays one WAL file into the MemStore; returns the highest sequence it held. */
    private long replayLog(long number) throws IOException {
        Path path = FileNames.log(dir, number);
        LogReader reader = new LogReader(fs.readAll(path), path, FileHeader.KIND_WAL);
        long[] max = {0};
        byte[] record;
        while ((record = reader.next()) != null) {
            // A bounded (off-heap) MemStore may be full before it is due for a flush (records of small
            // cells outweigh their data bytes, or the logs came from a larger MemStore): nothing would
            // return its memory, so the recovered data goes to a table first. Each operation takes at
            // least 2 encoded bytes, so a record holds at most length / 2 cells.
            if (!memstore.hasRoomFor(record.length, record.length / 2) && !memstore.isActiveEmpty()) {
                versions.setLastSequence(Math.max(versions.lastSequence(), max[0]));
                writeRecoveredTable(-1);
            }
            BatchCodec.decode(record, path, reader.lastRecordOffset(), (seq, kind, key, value) -> {
                memstore.add(key, seq, kind, value);
                max[0] = Math.max(max[0], seq);
            });
            memstore.endWrite();
        }
        if (reader.tornTailOffset() >= 0) {
            LOG.warn("{}: cut a torn tail at offset {} (an interrupted write that was never acknowledged as synced)",
                    path, reader.tornTailOffset());
        }
        return max[0];
    }

    /**
     * Writes what recovery put in the MemStore to L0 and records {@code newLog} (if >= 0) as the first
     * log still needed.
     */
    private void writeRecoveredTable(long newLog) throws IOException {
        VersionEdit edit = new VersionEdit();
        if (!memstore.isActiveEmpty()) {
            List<Segment> segments = memstore.snapshot();
            for (FileMeta f : writeFlushTables(segments)) {
                scheme.placeFlush(versions.current(), f, edit);
            }
        }
        if (newLog >= 0) {
            edit.logNumber(newLog);
        }
        versions.logAndApply(edit);
        pendingOutputs.clear();
        if (memstore.hasSnapshot()) {
            memstore.clearSnapshot();
        }
    }

    /** Writes MemStore segments into one table (none if they hold nothing). */
    private List<FileMeta> writeFlushTables(List<Segment> segments) throws IOException {
        List<InternalIterator> its = new ArrayList<>();
        for (Segment s : segments) {
            its.add(s.iterator());
        }
        TableSink out = scheme.flushOutputs(writeContext(counters.flushBytesWritten));
        try (MergingIterator it = new MergingIterator(its)) {
            VersionPruner pruner = new VersionPruner(snapshots.sequences(), null);
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (pruner.keep(it.key(), it.sequence(), it.kind())) {
                    scheme.observeFlushedKey(it.key(), it.kind());
                    out.add(it.key(), it.sequence(), it.kind(), it.value());
                }
            }
            return out.finish();
        } catch (IOException | RuntimeException e) {
            out.abandon();
            pendingOutputs.removeAll(out.created());
            throw e;
        }
    }

    private TableWriteContext writeContext(LongAdder bytesWritten) {
        return new TableWriteContext(dir, fs, versions, tableFormat, pendingOutputs, tables, bytesWritten);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void put(byte[] key, byte[] value, WriteOptions options) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        // Sized for the encoded put (kind byte, two varint lengths of at most 5 bytes, key, value).
        write(new WriteBatch(11 + key.length + value.length).put(key, value), options);
    }

    @Override
    public void delete(byte[] key, WriteOptions options) {
        Objects.requireNonNull(key, "key");
        write(new WriteBatch(6 + key.length).delete(key), options);
    }

    @Override
    public void write(WriteBatch batch, WriteOptions wo) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(wo, "options");
        checkOpen();
        if (batch.maxValueLength() > options.maxValueLength()) {
            throw new IllegalArgumentException("value length " + batch.maxValueLength() + " exceeds maxValueLength "
                    + options.maxValueLength() + " (EngineOptions.maxValueLength, at most "
                    + EngineOptions.MAX_VALUE_LENGTH_LIMIT + ")");
        }
        if (batch.count() == 0) {
            return;
        }
        runWriter(new Writer(batch, wo.durability(), lock.newCondition()));
    }

    private void runWriter(Writer w) {
        lock.lock();
        try {
            writers.addLast(w);
            while (!w.done && writers.peekFirst() != w) {
                w.cv.awaitUninterruptibly();
            }
            if (w.done) {
                rethrow(w.error);
                return;
            }
            List<Writer> group = new ArrayList<>();
            Throwable error = null;
            try {
                makeRoomForWrite(w.batch == null, w.batch == null ? 0 : w.batch.encodedLength(),
                        w.batch == null ? 0 : w.batch.count());
                if (w.batch != null) {
                    buildGroup(w, group);
                    writeGroup(group);
                }
            } catch (Throwable t) {
                error = t;
            }
            if (group.isEmpty()) {
                group.add(w);
            }
            for (Writer x : group) {
                Writer head = writers.pollFirst();
                assert head == x;
                x.done = true;
                x.error = error;
                if (x != w) {
                    x.cv.signal();
                }
            }
            Writer next = writers.peekFirst();
            if (next != null) {
                next.cv.signal();
            } else {
                writersDrained.signalAll();
            }
            rethrow(error);
        } finally {
            lock.unlock();
        }
    }

    private static void rethrow(Throwable t) {
        if (t == null) {
            return;
        }
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        if (t instanceof IOException) {
            throw new EngineIOException(t.getMessage(), (IOException) t);
        }
        throw new IllegalStateException(t);
    }

    /** Takes queued writers after the leader with the same WAL class, up to the group size limit. */
    private void buildGroup(Writer leader, List<Writer> group) {
        long bytes = 0;
        long entries = 0;
        for (Writer x : writers) {
            if (x.batch == null || x.logged() != leader.logged()) {
                break;
            }
            if (!group.isEmpty() && (bytes + x.batch.encodedLength() > MAX_GROUP_BYTES
                    || !memstore.hasRoomFor(bytes + x.batch.encodedLength(), entries + x.batch.count()))) {
                break;
            }
            bytes += x.batch.encodedLength();
            entries += x.batch.count();
            group.add(x);
        }
    }

    /** REQUIRES: lock held, caller is the leader. Releases the lock while doing I/O and inserting. */
    private void writeGroup(List<Writer> group) throws IOException {
        boolean logged = group.get(0).logged();
        if (logged && (wal.needsRoll() || wal.size() >= memstore.logRollBytes())) {
            rollWal();
        }
        long first = versions.lastSequence() + 1;
        long count = 0;
        long userBytes = 0;
        boolean sync = false;
        List<WriteBatch> batches = new ArrayList<>(group.size());
        for (Writer x : group) {
            batches.add(x.batch);
            count += x.batch.count();
            userBytes += x.batch.userBytes();
            sync |= x.durability == Durability.SYNC;
        }
        if (first + count - 1 > InternalKeys.MAX_SEQUENCE) {
            throw new IllegalStateException("sequence numbers exhausted");
        }
        if (!logged) {
            unloggedWrites = true;
        }
        lock.unlock();
        // An interrupt during FileChannel I/O closes the channel; the caller's interrupt status is
        // restored afterwards instead of being allowed to break the WAL.
        boolean interrupted = Thread.interrupted();
        try {
            if (logged) {
                byte[] record = BatchCodec.encode(first, batches);
                wal.append(record, sync, first + count - 1);
                counters.walBytes.add(record.length);
            }
            long seq = first;
            for (WriteBatch b : batches) {
                long[] s = {seq};
                b.forEach(new WriteBatch.Handler() {
                    @Override
                    public void put(byte[] key, byte[] value) {
                        memstore.add(key, s[0]++, InternalKeys.KIND_PUT, value);
                    }

                    @Override
                    public void delete(byte[] key) {
                        memstore.add(key, s[0]++, InternalKeys.KIND_DELETE, null);
                    }
                });
                seq = s[0];
            }
            memstore.endWrite();
            counters.userBytes.add(userBytes);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            lock.lock();
            // Sequences of a failed group are used up too: its record may still surface in recovery.
            versions.setLastSequence(first + count - 1);
        }
    }

    /**
     * REQUIRES: lock held, caller is the leader. Waits while the MemStore or L0 is over its limits and
     * switches to a new MemStore and WAL when the current one is full (or {@code force}). A group of
     * {@code entries} cells in {@code bytes} that the MemStore's memory cannot take now waits here,
     * before it is logged, so an insert never fails after its WAL append.
     */
    private void makeRoomForWrite(boolean force, long bytes, long entries) throws IOException {
        boolean allowDelay = !force;
        long stallStart = 0;
        long memoryWaitStart = 0;
        try {
            while (true) {
                if (closing) {
                    throw new EngineClosedException("engine is closed");
                }
                WritePressure pressure = scheme.pressure(versions.current());
                if (allowDelay && pressure == WritePressure.SLOWDOWN) {
                    // Delay this group by 1 ms once instead of stopping later for seconds (LevelDB's rule).
                    allowDelay = false;
                    counters.stalls.increment();
                    long t0 = System.nanoTime();
                    lock.unlock();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        lock.lock();
                    }
                    counters.stallNanos.add(System.nanoTime() - t0);
                } else if ((pressure == WritePressure.STOP && !(force && closeRequested))
                        || (memstore.hasSnapshot() && (force ? !memstore.isActiveEmpty() : memstore.shouldFlush()))) {
                    checkCloseNotBlocked();
                    if (stallStart == 0) {
                        stallStart = System.nanoTime();
                        counters.stalls.increment();
                    }
                    maybeScheduleCompaction();
                    backgroundChanged.awaitNanos(STALL_RECHECK_NANOS);
                } else if (!force && !memstore.hasRoomFor(bytes, entries) && !memstore.hasSnapshot()
                        && flushFreesMemory()) {
                    // A bounded (off-heap) MemStore is full: flushing it frees its memory.
                    switchMemStore();
                } else if (!force && !memstore.hasRoomFor(bytes, entries)) {
                    // The flush, an in-memory compaction or readers closing their views return memory;
                    // long-lived cursors may never do, so the wait is bounded.
                    checkCloseNotBlocked();
                    long now = System.nanoTime();
                    if (memoryWaitStart == 0) {
                        memoryWaitStart = now;
                        if (stallStart == 0) {
                            stallStart = now;
                            counters.stalls.increment();
                        }
                    } else if (now - memoryWaitStart > MEMORY_WAIT_NANOS) {
                        throw new MemoryLimitException("the MemStore's memory had no room for a write of " + bytes
                                + " bytes for " + TimeUnit.NANOSECONDS.toSeconds(MEMORY_WAIT_NANOS) + " s ("
                                + memstore.stats().pool + "); raise offHeapLimit, or close long-lived cursors,"
                                + " which pin the MemStore memory they read");
                    }
                    backgroundChanged.awaitNanos(MEMORY_RECHECK_NANOS);
                } else if (!force && !memstore.shouldFlush()) {
                    return;
                } else if (force && memstore.isActiveEmpty()) {
                    return;
                } else {
                    switchMemStore();
                    force = false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineIOException("interrupted while waiting for a flush", new java.io.InterruptedIOException());
        } finally {
            if (stallStart != 0) {
                counters.stallNanos.add(System.nanoTime() - stallStart);
            }
        }
    }

    /**
     * Whether flushing the MemStore would give back enough memory to be worth a table: an eighth of a
     * MemStore's worth. When readers pin the rest of the pool, flushing what a few groups added would
     * leave a tiny table per group; the group waits for the readers instead. Counted in memory, not
     * data: cells of empty keys and values fill chunks without adding data bytes.
     */
    private boolean flushFreesMemory() {
        return !memstore.isActiveEmpty() && memstore.stats().offHeapBytes >= options.memstoreSize() / 8;
    }

    /** REQUIRES: lock held, leader. Starts a new WAL, snapshots the MemStore, schedules its flush. */
    private void switchMemStore() throws IOException {
        long number = rollWal();
        pendingFlush = memstore.snapshot();
        pendingFlushLog = number;
        snapshotUnlogged = unloggedWrites;
        unloggedWrites = false;
        scheduleFlush(0);
    }

    /** REQUIRES: lock held, leader. Starts a new log and remembers the closed one's last sequence. */
    private long rollWal() throws IOException {
        long closedNumber = wal.number();
        long closedMax = wal.maxSequence();
        long number = versions.newFileNumber();
        boolean forced = wal.roll(number);
        closedLogs.closed(closedNumber, closedMax, forced);
        return number;
    }

    /** Called by the MemStore after it dropped versions in memory. */
    private void scheduleWalTruncation() {
        ExecutorService ex = flushExecutor;
        if (ex == null || closing || !walTruncationScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            ex.execute(this::truncateWal);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            walTruncationScheduled.set(false);
        }
    }

    /**
     * Releases the logs whose every record is below the MemStore's oldest sequence (Accordion's WAL
     * truncation; {@link LogRetention} says why that is safe) by moving the manifest's log number.
     *
     * <p>Unlogged (Durability.NONE) writes stop this: the version shadowing a dropped one may be
     * unlogged, and a crash would lose both. So does a current log that cannot be forced: the version
     * shadowing a dropped one may be an ASYNC record in its unforced tail (closed logs were forced when
     * rolled), and a crash would lose both. Runs on the flush thread, so it never interleaves with a
     * flush's log-number edit.
     */
    private void truncateWal() {
        walTruncationScheduled.set(false);
        long keepFrom;
        long current;
        lock.lock();
        try {
            if (closing || unloggedWrites || snapshotUnlogged) {
                return;
            }
            current = wal.number();
            keepFrom = closedLogs.firstNeeded(memstore.minSequence(), current);
            if (keepFrom <= versions.logNumber()) {
                return;
            }
        } finally {
            lock.unlock();
        }
        // Every version shadowing one dropped before the minimum was read was appended before it.
        if (!wal.force(current)) {
            return;
        }
        try {
            versions.logAndApply(new VersionEdit().logNumber(keepFrom));
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not record released WAL files; they stay until the next flush", e);
            return;
        }
        lock.lock();
        try {
            closedLogs.prune(versions.logNumber());
        } finally {
            lock.unlock();
        }
        memstoreCounters.logsReleasedEarly.increment();
        scheduleSweep();
    }

    private void scheduleFlush(long delayMs) {
        if (flushScheduled) {
            return;
        }
        flushScheduled = true;
        if (delayMs == 0) {
            flushExecutor.execute(this::runFlush);
        } else {
            scheduler.schedule(() -> flushExecutor.execute(this::runFlush), delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private void runFlush() {
        List<Segment> segments;
        long logNumber;
        lock.lock();
        try {
            flushScheduled = false;
            if (pendingFlush == null) {
                return;
            }
            segments = pendingFlush;
            logNumber = pendingFlushLog;
        } finally {
            lock.unlock();
        }
        List<FileMeta> files = List.of();
        try {
            files = writeFlushTables(segments);
            VersionEdit edit = new VersionEdit();
            for (FileMeta f : files) {
                scheme.placeFlush(versions.current(), f, edit);
            }
            // WAL truncation may have moved the log number past this snapshot's logs already.
            edit.logNumber(Math.max(logNumber, versions.logNumber()));
            versions.logAndApply(edit);
        } catch (IOException | RuntimeException e) {
            if (!(e instanceof VersionSet.ManifestWriteException)) {
                for (FileMeta f : files) {
                    pendingOutputs.remove(f.number);
                }
            }
            counters.backgroundErrors.increment();
            lock.lock();
            try {
                long delay = retryDelay(++flushFailures);
                LOG.error("flush failed (attempt {}); the MemStore snapshot is kept and readable, retrying in {} ms",
                        flushFailures, delay, e);
                backgroundChanged.signalAll();
                if (!closing) {
                    scheduleFlush(delay);
                }
            } finally {
                lock.unlock();
            }
            return;
        }
        for (FileMeta f : files) {
            pendingOutputs.remove(f.number);
        }
        lock.lock();
        try {
            // Only now that the version holds the table may readers stop finding the data in memory.
            memstore.clearSnapshot();
            pendingFlush = null;
            pendingFlushLog = -1;
            snapshotUnlogged = false;
            closedLogs.prune(versions.logNumber());
            flushFailures = 0;
            counters.flushes.increment();
            backgroundChanged.signalAll();
            maybeScheduleCompaction();
        } finally {
            lock.unlock();
        }
        scheduleSweep();
    }

    private static long retryDelay(int failures) {
        return Math.min(MAX_RETRY_DELAY_MS, 50L << Math.min(failures, 10));
    }

    // ---------------------------------------------------------------- compaction

    /** REQUIRES: lock held. */
    private void maybeScheduleCompaction() {
        if (closing || manualCompaction || System.nanoTime() - compactionRetryAtNanos < 0) {
            return;
        }
        while (runningCompactions < maxCompactions) {
            Version v = versions.current();
            Compaction c = scheme.pick(v, busyTables);
            if (c == null) {
                return;
            }
            for (FileMeta f : c.inputFiles()) {
                busyTables.add(f.number);
            }
            runningCompactions++;
            compactionExecutor.execute(() -> runCompaction(c));
        }
    }

    private void runCompaction(Compaction c) {
        boolean ok = false;
        try {
            executeCompaction(c);
            ok = true;
        } catch (IOException | RuntimeException e) {
            counters.backgroundErrors.increment();
            LOG.error("compaction failed: {}; its inputs are untouched", c, e);
        } finally {
            lock.lock();
            try {
                for (FileMeta f : c.inputFiles()) {
                    busyTables.remove(f.number);
                }
                runningCompactions--;
                if (ok) {
                    compactionFailures = 0;
                } else {
                    long delay = retryDelay(++compactionFailures);
                    compactionRetryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
                    scheduler.schedule(this::scheduleCompactionLocked, delay, TimeUnit.MILLISECONDS);
                }
                backgroundChanged.signalAll();
                maybeScheduleCompaction();
            } finally {
                lock.unlock();
            }
            scheduleSweep();
        }
    }

    private void scheduleCompactionLocked() {
        lock.lock();
        try {
            maybeScheduleCompaction();
        } finally {
            lock.unlock();
        }
    }

    /** Runs one compaction on the calling thread and installs its result. */
    private void executeCompaction(Compaction c) throws IOException {
        TableSink out = scheme.compactionOutputs(c, writeContext(counters.compactionBytesWritten));
        boolean keepOutputs = false;
        try {
            VersionEdit edit = scheme.runCompaction(c, tables, snapshots.sequences(), out);
            scheme.onCompacted(c, edit);
            versions.logAndApply(edit);
            if (!c.isTrivialMove()) {
                counters.compactionBytesRead.add(c.inputBytes());
            }
            counters.compactions.increment();
            LOG.debug("compacted {}", c);
        } catch (VersionSet.ManifestWriteException e) {
            // The edit may be durable: its outputs stay (pending, so the sweep leaves them) until the
            // next open decides from the manifest whether they are live.
            keepOutputs = true;
            throw e;
        } catch (IOException | RuntimeException e) {
            out.abandon();
            throw e;
        } finally {
            if (!keepOutputs) {
                pendingOutputs.removeAll(out.created());
            }
        }
    }

    // ---------------------------------------------------------------- obsolete files

    private void scheduleSweep() {
        // During recovery (no scheduler yet) the sweep at the end of open covers it.
        if (scheduler == null || closed.get() || !sweepScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            scheduler.execute(() -> {
                sweepScheduled.set(false);
                try {
                    obsoleteFiles.sweep(false);
                } catch (IOException | RuntimeException e) {
                    LOG.warn("could not delete obsolete files; will retry after the next flush or compaction", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            sweepScheduled.set(false);
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] get(byte[] key, ReadOptions ro) {
        Lookup lk = lookup(key, ro);
        return lk == null ? null : lk.value.clone();
    }

    @Override
    public int get(byte[] key, byte[] dst, int off, ReadOptions ro) {
        Objects.requireNonNull(dst, "dst");
        if (off < 0 || off > dst.length) {
            throw new IllegalArgumentException("offset " + off + " outside the buffer of " + dst.length + " bytes");
        }
        Lookup lk = lookup(key, ro);
        if (lk == null) {
            return -1;
        }
        System.arraycopy(lk.value, 0, dst, off, Math.min(lk.value.length, dst.length - off));
        return lk.value.length;
    }

    /** The live PUT of {@code key} visible to {@code ro}, or null. */
    private Lookup lookup(byte[] key, ReadOptions ro) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ro, "options");
        checkOpen();
        if (key.length > InternalKeys.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key length " + key.length + " exceeds the limit of "
                    + InternalKeys.MAX_KEY_LENGTH + " bytes");
        }
        counters.gets.increment();
        Lookup lk = new Lookup();
        MemStoreView view = memstore.view();
        Version v = versions.acquireCurrent();
        try {
            long seq = readSequence(ro);
            if (view.get(key, seq, lk)) {
                return lk.kind == InternalKeys.KIND_PUT ? lk : null;
            }
            if (scheme.get(v, key, seq, tables, ro.fillCache(), lk, counters)) {
                return lk.kind == InternalKeys.KIND_PUT ? lk : null;
            }
            return null;
        } catch (IOException e) {
            throw new EngineIOException("get failed: " + e.getMessage(), e);
        } finally {
            v.release();
            view.close();
        }
    }

    /** A cursor seek, for the scheme's seek-based compaction; locks only when a compaction becomes due. */
    void cursorSeeked(byte[] key) {
        if (scheme.onSeek(key, versions.lastSequence())) {
            scheduleCompactionLocked();
        }
    }

    /** The sequence a read sees: its snapshot's, or the latest published (read after taking the view). */
    private long readSequence(ReadOptions ro) {
        Snapshot s = ro.snapshot();
        if (s == null) {
            return versions.lastSequence();
        }
        if (!(s instanceof SnapshotImpl) || ((SnapshotImpl) s).owner() != this) {
            throw new IllegalArgumentException("snapshot " + s + " does not belong to this engine");
        }
        return ((SnapshotImpl) s).checkedSequence();
    }

    @Override
    public Snapshot snapshot() {
        checkOpen();
        synchronized (snapshots) {
            long seq = versions.lastSequence();
            snapshots.add(seq);
            return new SnapshotImpl(seq, this, snapshots);
        }
    }

    @Override
    public Cursor cursor(ReadOptions ro) {
        Objects.requireNonNull(ro, "options");
        checkOpen();
        MemStoreView view = memstore.view();
        Version v = versions.acquireCurrent();
        try {
            long seq = readSequence(ro);
            List<InternalIterator> sources = new ArrayList<>(view.iterators());
            sources.addAll(scheme.cursorSources(v, tables, ro.fillCache()));
            return new DbCursor(this, sources, view, v, seq, ro.lowerBound(), ro.upperBound());
        } catch (IOException e) {
            v.release();
            view.close();
            throw new EngineIOException("cursor failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            v.release();
            view.close();
            throw e;
        }
    }

    // ---------------------------------------------------------------- maintenance

    @Override
    public void flush() {
        checkOpen();
        runWriter(new Writer(null, Durability.SYNC, lock.newCondition()));
        waitForFlushes();
    }

    /** Waits until no MemStore snapshot is waiting to be flushed. */
    private void waitForFlushes() {
        lock.lock();
        try {
            while (memstore.hasSnapshot()) {
                if (closing) {
                    throw new EngineClosedException("engine closed while waiting for a flush");
                }
                checkCloseNotBlocked();
                backgroundChanged.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void compactRange(byte[] from, byte[] to) {
        checkOpen();
        flush();
        lock.lock();
        try {
            while (manualCompaction) {
                awaitBackground();
            }
            // Stops new automatic compactions; the running ones finish first.
            manualCompaction = true;
            try {
                while (runningCompactions > 0) {
                    awaitBackground();
                }
            } catch (RuntimeException e) {
                manualCompaction = false;
                throw e;
            }
        } finally {
            lock.unlock();
        }
        try {
            // Every level, the last included: a scheme may compact within it (LSM_TRIE's garbage collection).
            for (int level = 0; level < versions.numLevels() && !closing; level++) {
                Compaction c = scheme.pickManual(versions.current(), level, from, to);
                if (c != null) {
                    executeCompaction(c);
                    scheduleSweep();
                }
            }
        } catch (IOException e) {
            counters.backgroundErrors.increment();
            throw new EngineIOException("compactRange failed: " + e.getMessage(), e);
        } finally {
            lock.lock();
            try {
                manualCompaction = false;
                backgroundChanged.signalAll();
                maybeScheduleCompaction();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * REQUIRES: lock held. Close must not wait forever behind a flush that keeps failing: once close is
     * requested, a failed flush ends the wait.
     */
    private void checkCloseNotBlocked() {
        if (closeRequested && flushFailures > 0) {
            throw new EngineIOException("flush is failing while the engine closes", new IOException("flush failed "
                    + flushFailures + " time(s)"));
        }
    }

    /** REQUIRES: lock held. Waits for a background change; fails if the engine closes meanwhile. */
    private void awaitBackground() {
        if (closing) {
            throw new EngineClosedException("engine closed during compactRange");
        }
        backgroundChanged.awaitUninterruptibly();
    }

    @Override
    public EngineStats stats() {
        checkOpen();
        return statsCollector.collect();
    }

    @Override
    public MeterBinder metrics(String name) {
        return new EngineMetrics(this, name);
    }

    /** Counters for the metrics binder, which must not go through the closed-check of stats(). */
    EngineCounters counters() {
        return counters;
    }

    MemStoreCounters memstoreCounters() {
        return memstoreCounters;
    }

    /** Whether no compaction runs and none is due (tests). */
    boolean compactionIdle() {
        lock.lock();
        try {
            return runningCompactions == 0 && scheme.pick(versions.current(), busyTables) == null;
        } finally {
            lock.unlock();
        }
    }

    /** Live snapshots (tests). */
    int snapshotCount() {
        return snapshots.size();
    }

    MemStore memstore() {
        return memstore;
    }

    VersionSet versions() {
        return versions;
    }

    void checkOpen() {
        if (closed.get()) {
            throw new EngineClosedException("engine at " + dir + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed.get()) {
            return;
        }
        closeRequested = true;
        boolean flushUnlogged;
        lock.lock();
        try {
            flushUnlogged = unloggedWrites;
        } finally {
            lock.unlock();
        }
        if (flushUnlogged) {
            try {
                flush();
            } catch (RuntimeException e) {
                LOG.error("flush of unlogged (Durability.NONE) writes at close failed; they are lost", e);
            }
        }
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        lock.lock();
        try {
            closing = true;
            backgroundChanged.signalAll();
            for (Writer w : writers) {
                w.cv.signal();
            }
            // Writers already queued fail fast now; a leader doing I/O finishes its group first, and a
            // manual compaction finishes the level it is compacting.
            while (!writers.isEmpty() || manualCompaction) {
                writersDrained.awaitNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        flushExecutor.shutdown();
        compactionExecutor.shutdown();
        scheduler.shutdown();
        inMemoryExecutor.shutdown();
        try {
            inMemoryExecutor.awaitTermination(1, TimeUnit.HOURS);
            flushExecutor.awaitTermination(1, TimeUnit.HOURS);
            compactionExecutor.awaitTermination(1, TimeUnit.HOURS);
            scheduler.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            wal.close();
        } catch (IOException e) {
            LOG.error("closing the WAL failed", e);
        }
        try {
            versions.close();
        } catch (IOException e) {
            LOG.error("closing the manifest failed", e);
        }
        tables.close();
        memstore.close();
        try {
            dirLock.close();
        } catch (IOException e) {
            LOG.error("releasing the directory lock failed", e);
        }
    }

    private void closeWalQuietly() {
        if (wal != null) {
            try {
                wal.close();
            } catch (IOException ignored) {
                // open is failing anyway
            }
        }
    }

    @Override
    public String toString() {
        return "Bellows[" + dir + ", " + options.compaction() + "/" + options.inMemoryCompaction() + "]";
    }
}
