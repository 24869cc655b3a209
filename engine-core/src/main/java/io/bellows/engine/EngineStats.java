package io.bellows.engine;

import java.util.Arrays;

/**
 * A point-in-time copy of an engine's counters. Amplification follows RocksDB's definitions so
 * figures compare across engines:
 *
 * <ul>
 *   <li>write amplification = (flush bytes written + compaction bytes written) / flush bytes written;
 *   <li>space amplification = bytes of all live tables / bytes of the last non-empty level;
 *   <li>tables probed per get = tables whose filter or index a get consulted, per get.
 * </ul>
 */
public final class EngineStats {
    private final long userBytesWritten;
    private final long walBytesWritten;
    private final long flushBytesWritten;
    private final long compactionBytesRead;
    private final long compactionBytesWritten;
    private final long gets;
    private final long tablesProbed;
    private final long blockReads;
    private final long blockCacheHits;
    private final long bloomNegatives;
    private final long filterBlockReads;
    private final long stallNanos;
    private final long stalls;
    private final long flushes;
    private final long compactions;
    private final long memstoreDataBytes;
    private final long memstoreHeapBytes;
    private final long[] levelBytes;
    private final int[] levelTables;
    private final long lastSequence;
    private final String tableIoMode;
    private final long backgroundErrors;
    private final long inMemoryFlushes;
    private final long inMemoryFlattens;
    private final long inMemoryMerges;
    private final long inMemoryCompactions;
    private final long inMemoryAborted;
    private final long inMemoryBytesEliminated;
    private final long skiplistDataBytes;
    private final long skiplistHeapBytes;
    private final long skiplistEntries;
    private final long flatDataBytes;
    private final long flatHeapBytes;
    private final long flatEntries;
    private final long serializedDataBytes;
    private final long serializedHeapBytes;
    private final long serializedEntries;
    private final long memstoreOffHeapBytes;
    private final long chunksInUse;
    private final long chunksFree;
    private final long chunkPoolOffHeapBytes;
    private final int pipelineSegments;
    private final double adaptiveUniqueness;
    private final double adaptiveThrottle;

    private EngineStats(Builder b) {
        userBytesWritten = b.userBytesWritten;
        walBytesWritten = b.walBytesWritten;
        flushBytesWritten = b.flushBytesWritten;
        compactionBytesRead = b.compactionBytesRead;
        compactionBytesWritten = b.compactionBytesWritten;
        gets = b.gets;
        tablesProbed = b.tablesProbed;
        blockReads = b.blockReads;
        blockCacheHits = b.blockCacheHits;
        bloomNegatives = b.bloomNegatives;
        filterBlockReads = b.filterBlockReads;
        stallNanos = b.stallNanos;
        stalls = b.stalls;
        flushes = b.flushes;
        compactions = b.compactions;
        memstoreDataBytes = b.memstoreDataBytes;
        memstoreHeapBytes = b.memstoreHeapBytes;
        levelBytes = b.levelBytes.clone();
        levelTables = b.levelTables.clone();
        lastSequence = b.lastSequence;
        tableIoMode = b.tableIoMode;
        backgroundErrors = b.backgroundErrors;
        inMemoryFlushes = b.inMemoryFlushes;
        inMemoryFlattens = b.inMemoryFlattens;
        inMemoryMerges = b.inMemoryMerges;
        inMemoryCompactions = b.inMemoryCompactions;
        inMemoryAborted = b.inMemoryAborted;
        inMemoryBytesEliminated = b.inMemoryBytesEliminated;
        skiplistDataBytes = b.skiplistDataBytes;
        skiplistHeapBytes = b.skiplistHeapBytes;
        skiplistEntries = b.skiplistEntries;
        flatDataBytes = b.flatDataBytes;
        flatHeapBytes = b.flatHeapBytes;
        flatEntries = b.flatEntries;
        pipelineSegments = b.pipelineSegments;
        serializedDataBytes = b.serializedDataBytes;
        serializedHeapBytes = b.serializedHeapBytes;
        serializedEntries = b.serializedEntries;
        memstoreOffHeapBytes = b.memstoreOffHeapBytes;
        chunksInUse = b.chunksInUse;
        chunksFree = b.chunksFree;
        chunkPoolOffHeapBytes = b.chunkPoolOffHeapBytes;
        adaptiveUniqueness = b.adaptiveUniqueness;
        adaptiveThrottle = b.adaptiveThrottle;
    }

    /** For engine implementations: assembles a stats snapshot. */
    public static Builder builder() {
        return new Builder();
    }

    /** Key and value bytes of acknowledged writes. */
    public long userBytesWritten() {
        return userBytesWritten;
    }

    public long walBytesWritten() {
        return walBytesWritten;
    }

    public long flushBytesWritten() {
        return flushBytesWritten;
    }

    public long compactionBytesRead() {
        return compactionBytesRead;
    }

    public long compactionBytesWritten() {
        return compactionBytesWritten;
    }

    /** RocksDB's write amplification: (flush + compaction writes) / flush writes; 0 before any flush. */
    public double writeAmplification() {
        return flushBytesWritten == 0 ? 0 : (double) (flushBytesWritten + compactionBytesWritten) / flushBytesWritten;
    }

    /** All bytes written to the device (WAL, flush, compaction) per user byte; 0 before any write. */
    public double totalWriteAmplification() {
        return userBytesWritten == 0 ? 0
                : (double) (walBytesWritten + flushBytesWritten + compactionBytesWritten) / userBytesWritten;
    }

    public long gets() {
        return gets;
    }

    public long tablesProbed() {
        return tablesProbed;
    }

    public double tablesProbedPerGet() {
        return gets == 0 ? 0 : (double) tablesProbed / gets;
    }

    /** Table blocks read from the file (block cache misses). */
    public long blockReads() {
        return blockReads;
    }

    public long blockCacheHits() {
        return blockCacheHits;
    }

    /** Table probes a bloom filter answered "absent" without reading a data block. */
    public long bloomNegatives() {
        return bloomNegatives;
    }

    /**
     * Filter blocks read from files, counted apart from {@link #blockReads()}: LSM_TRIE's BloomCluster
     * pages missing from its filter cache (SSTable filters are loaded once per table, not per get).
     */
    public long filterBlockReads() {
        return filterBlockReads;
    }

    public long stallNanos() {
        return stallNanos;
    }

    /** Writes that were delayed or stopped by backpressure. */
    public long stalls() {
        return stalls;
    }

    public long flushes() {
        return flushes;
    }

    public long compactions() {
        return compactions;
    }

    /** Key and value bytes held by the MemStore. */
    public long memstoreDataBytes() {
        return memstoreDataBytes;
    }

    /** Estimated Java heap the MemStore holds: data plus index and object overhead. */
    public long memstoreHeapBytes() {
        return memstoreHeapBytes;
    }

    public int levels() {
        return levelBytes.length;
    }

    public long levelBytes(int level) {
        return levelBytes[level];
    }

    public int levelTables(int level) {
        return levelTables[level];
    }

    public long liveTableBytes() {
        long sum = 0;
        for (long b : levelBytes) {
            sum += b;
        }
        return sum;
    }

    /** Live table bytes / bytes of the last non-empty level; 0 when there are no tables. */
    public double spaceAmplification() {
        for (int i = levelBytes.length - 1; i >= 0; i--) {
            if (levelBytes[i] > 0) {
                return (double) liveTableBytes() / levelBytes[i];
            }
        }
        return 0;
    }

    public long lastSequence() {
        return lastSequence;
    }

    /** "direct" when table files use direct I/O, "buffered" otherwise. */
    public String tableIoMode() {
        return tableIoMode;
    }

    /** Flushes or compactions that failed (they are retried; no acknowledged data is lost). */
    public long backgroundErrors() {
        return backgroundErrors;
    }

    /** Active segments made immutable and pushed into the pipeline (compacting policies). */
    public long inMemoryFlushes() {
        return inMemoryFlushes;
    }

    /** Skiplist indices replaced by flat ones. */
    public long inMemoryFlattens() {
        return inMemoryFlattens;
    }

    /** Pipeline indices merged into one flat segment, every version kept. */
    public long inMemoryMerges() {
        return inMemoryMerges;
    }

    /** Pipelines compacted into one segment, versions no reader can see dropped. */
    public long inMemoryCompactions() {
        return inMemoryCompactions;
    }

    /** In-memory flattens, merges and compactions given up because a disk flush took the pipeline. */
    public long inMemoryAborted() {
        return inMemoryAborted;
    }

    /** Key and value bytes of versions dropped in memory: they never reached disk. */
    public long inMemoryBytesEliminated() {
        return inMemoryBytesEliminated;
    }

    /** Key and value bytes in skiplist segments (the active segment, pushed segments not yet flattened). */
    public long skiplistDataBytes() {
        return skiplistDataBytes;
    }

    /** Estimated heap of skiplist segments: data, skiplist nodes, cell objects. */
    public long skiplistHeapBytes() {
        return skiplistHeapBytes;
    }

    public long skiplistEntries() {
        return skiplistEntries;
    }

    /** Key and value bytes in flat (array-indexed) segments. */
    public long flatDataBytes() {
        return flatDataBytes;
    }

    /** Estimated heap of flat segments: data, index arrays, cell objects. */
    public long flatHeapBytes() {
        return flatHeapBytes;
    }

    public long flatEntries() {
        return flatEntries;
    }

    /** Key and value bytes in serialized segments (OFF_HEAP layout: index and data in off-heap chunks). */
    public long serializedDataBytes() {
        return serializedDataBytes;
    }

    /** Estimated heap of serialized segments: only their chunk tables, no object per cell. */
    public long serializedHeapBytes() {
        return serializedHeapBytes;
    }

    public long serializedEntries() {
        return serializedEntries;
    }

    /** Off-heap bytes the MemStore's segments hold: cell data, record headers, serialized indices. */
    public long memstoreOffHeapBytes() {
        return memstoreOffHeapBytes;
    }

    /** MSLAB chunks (on- or off-heap, by layout) held by segments now. */
    public long chunksInUse() {
        return chunksInUse;
    }

    /** MSLAB chunks kept in the pool for reuse. */
    public long chunksFree() {
        return chunksFree;
    }

    /** Off-heap bytes the chunk pool has allocated (chunks in use and free); 0 for the ON_HEAP layout. */
    public long chunkPoolOffHeapBytes() {
        return chunkPoolOffHeapBytes;
    }

    /** Immutable segments in the MemStore pipeline now. */
    public int pipelineSegments() {
        return pipelineSegments;
    }

    /** ADAPTIVE's estimate u of the fraction of unique keys (1 when unknown). */
    public double adaptiveUniqueness() {
        return adaptiveUniqueness;
    }

    /** ADAPTIVE's throttle t, the probability of compacting once redundancy is high enough (0 otherwise). */
    public double adaptiveThrottle() {
        return adaptiveThrottle;
    }

    @Override
    public String toString() {
        return "EngineStats{userBytes=" + userBytesWritten + ", walBytes=" + walBytesWritten + ", flushBytes="
                + flushBytesWritten + ", compactionRead=" + compactionBytesRead + ", compactionWritten="
                + compactionBytesWritten + ", writeAmp=" + String.format("%.2f", writeAmplification())
                + ", spaceAmp=" + String.format("%.2f", spaceAmplification()) + ", tablesProbedPerGet="
                + String.format("%.2f", tablesProbedPerGet()) + ", stallMs=" + stallNanos / 1_000_000
                + ", flushes=" + flushes + ", compactions=" + compactions + ", levelTables="
                + Arrays.toString(levelTables) + ", tableIo=" + tableIoMode + "}";
    }

    /** Mutable builder; see {@link EngineStats#builder()}. */
    public static final class Builder {
        private long userBytesWritten;
        private long walBytesWritten;
        private long flushBytesWritten;
        private long compactionBytesRead;
        private long compactionBytesWritten;
        private long gets;
        private long tablesProbed;
        private long blockReads;
        private long blockCacheHits;
        private long bloomNegatives;
        private long filterBlockReads;
        private long stallNanos;
        private long stalls;
        private long flushes;
        private long compactions;
        private long memstoreDataBytes;
        private long memstoreHeapBytes;
        private long[] levelBytes = new long[0];
        private int[] levelTables = new int[0];
        private long lastSequence;
        private String tableIoMode = "buffered";
        private long backgroundErrors;
        private long inMemoryFlushes;
        private long inMemoryFlattens;
        private long inMemoryMerges;
        private long inMemoryCompactions;
        private long inMemoryAborted;
        private long inMemoryBytesEliminated;
        private long skiplistDataBytes;
        private long skiplistHeapBytes;
        private long skiplistEntries;
        private long flatDataBytes;
        private long flatHeapBytes;
        private long flatEntries;
        private long serializedDataBytes;
        private long serializedHeapBytes;
        private long serializedEntries;
        private long memstoreOffHeapBytes;
        private long chunksInUse;
        private long chunksFree;
        private long chunkPoolOffHeapBytes;
        private int pipelineSegments;
        private double adaptiveUniqueness;
        private double adaptiveThrottle;

        private Builder() {}

        public Builder bytes(long user, long wal, long flush, long compactionRead, long compactionWritten) {
            userBytesWritten = user;
            walBytesWritten = wal;
            flushBytesWritten = flush;
            compactionBytesRead = compactionRead;
            compactionBytesWritten = compactionWritten;
            return this;
        }

        public Builder reads(long gets, long tablesProbed, long blockReads, long blockCacheHits, long bloomNegatives) {
            this.gets = gets;
            this.tablesProbed = tablesProbed;
            this.blockReads = blockReads;
            this.blockCacheHits = blockCacheHits;
            this.bloomNegatives = bloomNegatives;
            return this;
        }

        public Builder filterBlockReads(long reads) {
            filterBlockReads = reads;
            return this;
        }

        public Builder stalls(long stalls, long stallNanos) {
            this.stalls = stalls;
            this.stallNanos = stallNanos;
            return this;
        }

        public Builder background(long flushes, long compactions, long errors) {
            this.flushes = flushes;
            this.compactions = compactions;
            this.backgroundErrors = errors;
            return this;
        }

        public Builder memstore(long dataBytes, long heapBytes) {
            memstoreDataBytes = dataBytes;
            memstoreHeapBytes = heapBytes;
            return this;
        }

        public Builder inMemory(long flushes, long flattens, long merges, long compactions, long aborted,
                long bytesEliminated) {
            inMemoryFlushes = flushes;
            inMemoryFlattens = flattens;
            inMemoryMerges = merges;
            inMemoryCompactions = compactions;
            inMemoryAborted = aborted;
            inMemoryBytesEliminated = bytesEliminated;
            return this;
        }

        public Builder memstoreSegments(long skiplistData, long skiplistHeap, long skiplistEntries, long flatData,
                long flatHeap, long flatEntries, int pipelineSegments, double uniqueness, double throttle) {
            this.skiplistDataBytes = skiplistData;
            this.skiplistHeapBytes = skiplistHeap;
            this.skiplistEntries = skiplistEntries;
            this.flatDataBytes = flatData;
            this.flatHeapBytes = flatHeap;
            this.flatEntries = flatEntries;
            this.pipelineSegments = pipelineSegments;
            this.adaptiveUniqueness = uniqueness;
            this.adaptiveThrottle = throttle;
            return this;
        }

        public Builder serializedSegments(long data, long heap, long entries) {
            this.serializedDataBytes = data;
            this.serializedHeapBytes = heap;
            this.serializedEntries = entries;
            return this;
        }

        public Builder offHeap(long memstoreOffHeapBytes, long chunksInUse, long chunksFree, long poolOffHeapBytes) {
            this.memstoreOffHeapBytes = memstoreOffHeapBytes;
            this.chunksInUse = chunksInUse;
            this.chunksFree = chunksFree;
            this.chunkPoolOffHeapBytes = poolOffHeapBytes;
            return this;
        }

        public Builder levels(long[] bytes, int[] tables) {
            levelBytes = bytes.clone();
            levelTables = tables.clone();
            return this;
        }

        public Builder lastSequence(long seq) {
            lastSequence = seq;
            return this;
        }

        public Builder tableIoMode(String mode) {
            tableIoMode = mode;
            return this;
        }

        public EngineStats build() {
            return new EngineStats(this);
        }
    }
}
