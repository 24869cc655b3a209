package io.bellows.bench;

import io.bellows.engine.Compression;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.HistogramType;
import org.rocksdb.LRUCache;
import org.rocksdb.LevelMetaData;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * {@link BenchEngine} over RocksDB (rocksdbjni), configured from the same {@link EngineOptions} as
 * Bellows so the two compare like for like:
 *
 * <ul>
 *   <li>write_buffer_size = memstoreSize, max_write_buffer_number 2 (Bellows holds one active MemStore
 *       and one being flushed);
 *   <li>block size, restart interval, full bloom filter of bloomBitsPerKey, LRU block cache of
 *       blockCacheSize (none when 0); index and filter blocks outside the cache, as Bellows keeps them;
 *   <li>leveled compaction with dynamic level bytes (RocksDB's default, as LEVELED's), target file
 *       size, level count, L0 compaction / slowdown / stop triggers, max_background_jobs =
 *       backgroundThreads; the codec of each level as Bellows' (--compression);
 *   <li>direct I/O for reads, flushes and compactions when Bellows asks for it for its tables;
 *   <li>durability: SYNC is sync=true, NONE disables the WAL, ASYNC is sync=false plus a background
 *       syncWal() every walSyncInterval, which is what Bellows' ASYNC does.
 * </ul>
 *
 * Statistics are on (without detailed timers) so write amplification comes from RocksDB's own
 * flush and compaction byte counters.
 */
final class RocksDbEngine implements BenchEngine {
    private final RocksDB db;
    private final Statistics statistics;
    private final WriteOptions writeOptions;
    private final ReadOptions readOptions;
    private final boolean directIo;
    private final ScheduledExecutorService walSyncer;
    /** Everything native, closed in reverse order of creation after the DB. */
    private final Deque<AutoCloseable> natives = new ArrayDeque<>();
    /** Key and value bytes handed to writes: RocksDB's BYTES_WRITTEN also counts batch framing. */
    private final LongAdder userBytes = new LongAdder();

    private RocksDbEngine(RocksDB db, Statistics statistics, WriteOptions writeOptions, ReadOptions readOptions,
            boolean directIo, ScheduledExecutorService walSyncer) {
        this.db = db;
        this.statistics = statistics;
        this.writeOptions = writeOptions;
        this.readOptions = readOptions;
        this.directIo = directIo;
        this.walSyncer = walSyncer;
    }

    static RocksDbEngine open(Path dir, EngineOptions o, Durability durability) {
        RocksDB.loadLibrary();
        Deque<AutoCloseable> natives = new ArrayDeque<>();
        try {
            Statistics statistics = push(natives, new Statistics());
            statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockSize(o.blockSize())
                    .setBlockRestartInterval(o.blockRestartInterval())
                    .setCacheIndexAndFilterBlocks(false);
            if (o.bloomBitsPerKey() > 0) {
                table.setFilterPolicy(push(natives, new BloomFilter(o.bloomBitsPerKey(), false)));
            }
            if (o.blockCacheSize() > 0) {
                table.setBlockCache(push(natives, new LRUCache(o.blockCacheSize())));
            } else {
                table.setNoBlockCache(true);
            }
            Options options = push(natives, new Options());
            options.setCreateIfMissing(true)
                    .setStatistics(statistics)
                    .setTableFormatConfig(table)
                    .setWriteBufferSize(o.memstoreSize())
                    .setMaxWriteBufferNumber(2)
                    .setCompactionStyle(CompactionStyle.LEVEL)
                    .setLevelCompactionDynamicLevelBytes(true)
                    .setNumLevels(o.numLevels())
                    .setTargetFileSizeBase(o.targetFileSize())
                    .setMaxBytesForLevelBase(o.maxBytesForLevelBase())
                    .setMaxBytesForLevelMultiplier(o.levelSizeMultiplier())
                    .setLevel0FileNumCompactionTrigger(o.l0CompactionTrigger())
                    .setLevel0SlowdownWritesTrigger(o.l0SlowdownTrigger())
                    .setLevel0StopWritesTrigger(o.l0StopTrigger())
                    .setMaxBackgroundJobs(o.backgroundThreads())
                    .setCompressionPerLevel(compressionPerLevel(o))
                    .setBottommostCompressionType(codec(o.compression(o.numLevels() - 1, o.numLevels())))
                    .setUseDirectReads(o.directIo())
                    .setUseDirectIoForFlushAndCompaction(o.directIo());
            WriteOptions writeOptions = push(natives, new WriteOptions());
            writeOptions.setSync(durability == Durability.SYNC).setDisableWAL(durability == Durability.NONE);
            ReadOptions readOptions = push(natives, new ReadOptions());
            RocksDB db = RocksDB.open(options, dir.toString());
            ScheduledExecutorService syncer = null;
            if (durability == Durability.ASYNC) {
                syncer = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "rocksdb-wal-sync");
                    t.setDaemon(true);
                    return t;
                });
                long ms = o.walSyncInterval().toMillis();
                syncer.scheduleWithFixedDelay(() -> syncWal(db), ms, ms, TimeUnit.MILLISECONDS);
            }
            RocksDbEngine engine = new RocksDbEngine(db, statistics, writeOptions, readOptions, o.directIo(), syncer);
            engine.natives.addAll(natives);
            return engine;
        } catch (RocksDBException e) {
            closeAll(natives);
            throw new IllegalStateException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static <T extends AutoCloseable> T push(Deque<AutoCloseable> natives, T resource) {
        natives.push(resource);
        return resource;
    }

    private static void syncWal(RocksDB db) {
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            // NB: a failed background sync must not kill the scheduler; the next write reports real trouble.
            System.err.println("rocksdb: syncWal failed: " + e.getMessage());
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw failure("put", e);
        }
        userBytes.add(key.length + value.length);
    }

    @Override
    public void delete(byte[] key) {
        try {
            db.delete(writeOptions, key);
        } catch (RocksDBException e) {
            throw failure("delete", e);
        }
        userBytes.add(key.length);
    }

    @Override
    public Batch newBatch() {
        WriteBatch batch = new WriteBatch();
        return new Batch() {
            private long bytes;

            @Override
            public void put(byte[] key, byte[] value) {
                try {
                    batch.put(key, value);
                } catch (RocksDBException e) {
                    throw failure("batch put", e);
                }
                bytes += key.length + value.length;
            }

            @Override
            public void delete(byte[] key) {
                try {
                    batch.delete(key);
                } catch (RocksDBException e) {
                    throw failure("batch delete", e);
                }
                bytes += key.length;
            }

            @Override
            public int count() {
                return batch.count();
            }

            @Override
            public void commit() {
                try {
                    db.write(writeOptions, batch);
                } catch (RocksDBException e) {
                    throw failure("write", e);
                }
                batch.clear();
                userBytes.add(bytes);
                bytes = 0;
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        try {
            return db.get(readOptions, key, dst);
        } catch (RocksDBException e) {
            throw failure("get", e);
        }
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
        try {
            return db.multiGetAsList(readOptions, keys);
        } catch (RocksDBException e) {
            throw failure("multiGet", e);
        }
    }

    @Override
    public Scan scan() {
        return scan(null, null);
    }

    @Override
    public Scan scan(byte[] lower, byte[] upper) {
        // NB: bounds live in their own ReadOptions and Slices, released with the iterator.
        Deque<AutoCloseable> owned = new ArrayDeque<>();
        ReadOptions ro = readOptions;
        if (lower != null || upper != null) {
            ro = push(owned, new ReadOptions());
            if (lower != null) {
                ro.setIterateLowerBound(push(owned, new Slice(lower)));
            }
            if (upper != null) {
                ro.setIterateUpperBound(push(owned, new Slice(upper)));
            }
        }
        RocksIterator it = db.newIterator(ro);
        return new Scan() {
            @Override
            public void seekToFirst() {
                it.seekToFirst();
            }

            @Override
            public void seek(byte[] key) {
                it.seek(key);
            }

            @Override
            public boolean isValid() {
                if (it.isValid()) {
                    return true;
                }
                try {
                    it.status();
                } catch (RocksDBException e) {
                    throw failure("iterator", e);
                }
                return false;
            }

            @Override
            public void seekForPrev(byte[] key) {
                it.seekForPrev(key);
            }

            @Override
            public void seekToLast() {
                it.seekToLast();
            }

            @Override
            public void next() {
                it.next();
            }

            @Override
            public void prev() {
                it.prev();
            }

            @Override
            public byte[] key() {
                return it.key();
            }

            @Override
            public byte[] value() {
                return it.value();
            }

            @Override
            public void close() {
                it.close();
                closeAll(owned);
            }
        };
    }

    @Override
    public EngineStats stats() {
        List<LevelMetaData> levels = db.getColumnFamilyMetaData().levels();
        long[] levelBytes = new long[levels.size()];
        int[] levelTables = new int[levels.size()];
        for (LevelMetaData l : levels) {
            levelBytes[l.level()] = l.size();
            levelTables[l.level()] = l.files().size();
        }
        long useful = ticker(TickerType.BLOOM_FILTER_USEFUL);
        long memtable;
        long pending;
        long running;
        try {
            memtable = db.getLongProperty("rocksdb.cur-size-all-mem-tables");
            pending = db.getLongProperty("rocksdb.estimate-pending-compaction-bytes");
            running = db.getLongProperty("rocksdb.num-running-compactions");
        } catch (RocksDBException e) {
            throw failure("property", e);
        }
        return new EngineStats(
                new EngineStats.Io(userBytes.sum(), ticker(TickerType.WAL_FILE_BYTES),
                        ticker(TickerType.FLUSH_WRITE_BYTES), ticker(TickerType.COMPACT_READ_BYTES),
                        ticker(TickerType.COMPACT_WRITE_BYTES), directIo ? "direct" : "buffered"),
                new EngineStats.Reads(ticker(TickerType.NUMBER_KEYS_READ),
                        useful + ticker(TickerType.BLOOM_FILTER_FULL_POSITIVE),
                        ticker(TickerType.BLOCK_CACHE_DATA_MISS), ticker(TickerType.BLOCK_CACHE_DATA_HIT), 0, useful),
                new EngineStats.Background(statistics.getHistogramData(HistogramType.FLUSH_TIME).getCount(),
                        statistics.getHistogramData(HistogramType.COMPACTION_TIME).getCount(), 0,
                        statistics.getHistogramData(HistogramType.WRITE_STALL).getCount(),
                        ticker(TickerType.STALL_MICROS) * 1000, pending, (int) running),
                BenchStats.memstore(memtable, memtable, 0, 0, 0, 0),
                BenchStats.levels(levelBytes, levelTables),
                db.getLatestSequenceNumber());
    }

    private long ticker(TickerType t) {
        return statistics.getTickerCount(t);
    }

    @Override
    public void close() {
        if (walSyncer != null) {
            walSyncer.shutdownNow();
            try {
                walSyncer.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw failure("syncWal at close", e);
        } finally {
            db.close();
            closeAll(natives);
        }
    }

    private static void closeAll(Deque<AutoCloseable> natives) {
        while (!natives.isEmpty()) {
            try {
                natives.pop().close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot release a RocksDB object: " + e.getMessage(), e);
            }
        }
    }

    private static IllegalStateException failure(String op, RocksDBException e) {
        return new IllegalStateException("rocksdb " + op + " failed: " + e.getMessage(), e);
    }

    private static List<CompressionType> compressionPerLevel(EngineOptions o) {
        List<CompressionType> perLevel = new ArrayList<>();
        for (int level = 0; level < o.numLevels(); level++) {
            perLevel.add(codec(o.compression(level, o.numLevels())));
        }
        return perLevel;
    }

    private static CompressionType codec(Compression c) {
        return switch (c) {
            case NONE -> CompressionType.NO_COMPRESSION;
            case LZ4 -> CompressionType.LZ4_COMPRESSION;
            case ZSTD -> CompressionType.ZSTD_COMPRESSION;
        };
    }
}
