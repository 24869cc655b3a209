package io.bellows.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A point-in-time copy of an engine's counters ({@link Engine#stats()}), grouped into immutable
 * records: {@link Io I/O and write amplification}, {@link Reads reads}, {@link Background background
 * work}, the {@link MemStore} and the {@link Levels levels} (with space amplification), plus the last
 * sequence number. Amplification, with the bytes it counts (docs/tuning.md, "Amplification figures"):
 *
 * <ul>
 *   <li>write amplification (RocksDB's, so figures compare across engines) = (flush bytes written +
 *       compaction bytes written) / flush bytes written; both count every byte of every table file written
 *       (SSTable blocks, filters and index; HTable buckets, overflow area, filters, BloomClusters and
 *       metadata; CL-table indexes);
 *   <li>total write amplification (the papers' figure, disk writes per user byte) = (WAL + flush +
 *       compaction + manifest bytes written) / user bytes written; the manifest carries the schemes'
 *       own records (FLSM's guards, LSM_TRIE's garbage estimates, ...);
 *   <li>space amplification = bytes of the live tables / bytes of the user keys and values they hold
 *       ({@link Levels#spaceAmplification}); RocksDB's estimate, live table bytes / bytes of the last
 *       non-empty level, is kept as {@link Levels#lastLevelSpaceAmplification};
 *   <li>tables probed per get = tables whose filter or index a get consulted, per get.
 * </ul>
 *
 * @param io bytes written and read by cause, write amplification, table I/O mode
 * @param reads point lookups and what they cost
 * @param background flushes, compactions, their failures, and write stalls
 * @param memstore the MemStore's memory, its segments by kind and its in-memory work
 * @param levels tables and bytes per level, space amplification
 * @param lastSequence the sequence number of the last acknowledged write
 * @param recovery what the open that started this engine replayed from the WAL and what it dropped
 * @param scheme the compaction scheme's own figures by name (decisions and estimates; docs/tuning.md lists
 *     them per scheme), empty for a scheme that reports none
 */
public record EngineStats(Io io, Reads reads, Background background, MemStore memstore, Levels levels,
        long lastSequence, Recovery recovery, Map<String, Double> scheme) {
    /** Checks that no group is missing and copies the scheme's figures. */
    public EngineStats {
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(background, "background");
        Objects.requireNonNull(memstore, "memstore");
        Objects.requireNonNull(levels, "levels");
        Objects.requireNonNull(recovery, "recovery");
        scheme = Map.copyOf(scheme);
    }

    /** Stats of an engine whose scheme reports no figures of its own. */
    public EngineStats(Io io, Reads reads, Background background, MemStore memstore, Levels levels, long lastSequence,
            Recovery recovery) {
        this(io, reads, background, memstore, levels, lastSequence, recovery, Map.of());
    }

    /** Stats of an engine that reports no WAL recovery figures (another engine measured by the bench). */
    public EngineStats(Io io, Reads reads, Background background, MemStore memstore, Levels levels, long lastSequence) {
        this(io, reads, background, memstore, levels, lastSequence, Recovery.NONE);
    }

    /**
     * What the open replayed from the WAL files it found and what it dropped ({@link WalRecoveryMode}).
     *
     * @param walFiles WAL files the open read
     * @param recordsReplayed WAL records (write groups) applied
     * @param tornTailBytes bytes of incomplete last records cut from the ends of WAL files: writes a crash
     *     interrupted, never acknowledged as synced
     * @param corruptRegions damaged regions found (each logged at ERROR with its file and offset)
     * @param recordsDropped readable records not applied because of corruption: after the damage under
     *     POINT_IN_TIME (in its file and in later WAL files)
     * @param bytesDropped bytes not applied because of corruption: the damaged regions and, under
     *     POINT_IN_TIME, everything after the first of them
     */
    public record Recovery(long walFiles, long recordsReplayed, long tornTailBytes, long corruptRegions,
            long recordsDropped, long bytesDropped) {
        /** Nothing replayed, nothing dropped. */
        public static final Recovery NONE = new Recovery(0, 0, 0, 0, 0, 0);

        /** Whether recovery dropped anything that was not a torn tail. */
        public boolean droppedCorruptData() {
            return corruptRegions > 0;
        }
    }

    /**
     * Bytes the engine wrote and read, by cause.
     *
     * @param userBytesWritten key and value bytes of acknowledged writes
     * @param walBytesWritten bytes appended to the WAL
     * @param flushBytesWritten table bytes written by flushes
     * @param compactionBytesRead table bytes read by compactions
     * @param compactionBytesWritten table bytes written by compactions
     * @param tableIoMode "direct" when table files use direct I/O, "buffered" otherwise
     * @param manifestBytesWritten bytes appended to the manifest since open (version edits, snapshots)
     */
    public record Io(long userBytesWritten, long walBytesWritten, long flushBytesWritten, long compactionBytesRead,
            long compactionBytesWritten, String tableIoMode, long manifestBytesWritten) {
        /** Requires the I/O mode. */
        public Io {
            Objects.requireNonNull(tableIoMode, "tableIoMode");
        }

        /** Without manifest bytes (another engine measured by the bench). */
        public Io(long userBytesWritten, long walBytesWritten, long flushBytesWritten, long compactionBytesRead,
                long compactionBytesWritten, String tableIoMode) {
            this(userBytesWritten, walBytesWritten, flushBytesWritten, compactionBytesRead, compactionBytesWritten,
                    tableIoMode, 0);
        }

        /** RocksDB's write amplification: (flush + compaction writes) / flush writes; 0 before any flush. */
        public double writeAmplification() {
            return flushBytesWritten == 0 ? 0
                    : (double) (flushBytesWritten + compactionBytesWritten) / flushBytesWritten;
        }

        /** All bytes written to the device (WAL, flush, compaction, manifest) per user byte; 0 before any write. */
        public double totalWriteAmplification() {
            return userBytesWritten == 0 ? 0
                    : (double) (walBytesWritten + flushBytesWritten + compactionBytesWritten + manifestBytesWritten)
                            / userBytesWritten;
        }
    }

    /**
     * Point lookups and what they cost.
     *
     * @param gets point lookups
     * @param tablesProbed tables whose filter or index a get consulted
     * @param blockReads table blocks read from the file (block cache misses)
     * @param blockCacheHits table blocks served by the block cache
     * @param filterBlockReads filter blocks read from files, counted apart from {@code blockReads}:
     *     LSM_TRIE's BloomCluster pages missing from its filter cache (SSTable filters are loaded once
     *     per table, not per get)
     * @param bloomNegatives table probes a bloom filter answered "absent" without reading a data block
     */
    public record Reads(long gets, long tablesProbed, long blockReads, long blockCacheHits, long filterBlockReads,
            long bloomNegatives) {
        /** Tables probed per get; 0 before any get. */
        public double tablesProbedPerGet() {
            return gets == 0 ? 0 : (double) tablesProbed / gets;
        }
    }

    /**
     * Background work and the backpressure it applies.
     *
     * @param flushes MemStore flushes to tables
     * @param compactions table compactions
     * @param errors flushes or compactions that failed (they are retried; no acknowledged data is lost)
     * @param stalls writes that were delayed or stopped by backpressure
     * @param stallNanos time writers spent stalled
     * @param pendingCompactionBytes the scheme's estimate of the bytes compaction must still write before every
     *     level is within its target (RocksDB's estimate-pending-compaction-bytes); 0 when none is due or the
     *     scheme does not estimate it
     * @param runningCompactions compactions running now, automatic and manual (RocksDB's
     *     num-running-compactions)
     * @param stallCauses {@code stallNanos} by what the writers waited for
     */
    public record Background(long flushes, long compactions, long errors, long stalls, long stallNanos,
            long pendingCompactionBytes, int runningCompactions, StallCauses stallCauses) {
        public Background {
            Objects.requireNonNull(stallCauses, "stallCauses");
        }

        /** Without the stall time by cause (another engine measured by the bench). */
        public Background(long flushes, long compactions, long errors, long stalls, long stallNanos,
                long pendingCompactionBytes, int runningCompactions) {
            this(flushes, compactions, errors, stalls, stallNanos, pendingCompactionBytes, runningCompactions,
                    StallCauses.NONE);
        }

        /** Without a count of running compactions (another engine measured by the bench). */
        public Background(long flushes, long compactions, long errors, long stalls, long stallNanos,
                long pendingCompactionBytes) {
            this(flushes, compactions, errors, stalls, stallNanos, pendingCompactionBytes, 0);
        }

        /** Without an estimate of pending compaction bytes. */
        public Background(long flushes, long compactions, long errors, long stalls, long stallNanos) {
            this(flushes, compactions, errors, stalls, stallNanos, 0);
        }
    }

    /**
     * Time writers spent stalled, by cause (RocksDB's write-stall causes); the four add up to
     * {@link Background#stallNanos}.
     *
     * @param delayNanos one-millisecond delays of a write group because the compaction backlog (L0 tables,
     *     pending compaction bytes) passed its slowdown mark
     * @param stopNanos writes stopped until the compaction backlog fell under its stop mark
     * @param flushNanos writes waiting for the flush of the previous MemStore, the active one being full
     * @param memoryNanos writes waiting for MemStore memory (a bounded, off-heap MemStore)
     */
    public record StallCauses(long delayNanos, long stopNanos, long flushNanos, long memoryNanos) {
        public static final StallCauses NONE = new StallCauses(0, 0, 0, 0);

        /** These times less {@code earlier}'s. */
        public StallCauses minus(StallCauses earlier) {
            return new StallCauses(delayNanos - earlier.delayNanos, stopNanos - earlier.stopNanos,
                    flushNanos - earlier.flushNanos, memoryNanos - earlier.memoryNanos);
        }
    }

    /**
     * The MemStore now, and the in-memory work it has done since open.
     *
     * @param dataBytes key and value bytes held by the MemStore
     * @param heapBytes estimated Java heap the MemStore holds: data plus index and object overhead
     * @param offHeapBytes off-heap bytes the MemStore's segments hold: cell data, record headers,
     *     serialized indices
     * @param skiplist skiplist segments (the active segment, pushed segments not yet flattened); heap
     *     counts data, skiplist nodes and cell objects
     * @param flat flat (array-indexed) segments; heap counts data, index arrays and cell objects
     * @param serialized serialized segments (OFF_HEAP layout: index and data in off-heap chunks); heap
     *     counts only their chunk tables, no object per cell
     * @param pipelineSegments immutable segments in the MemStore pipeline now
     * @param inMemoryFlushes active segments made immutable and pushed into the pipeline (compacting
     *     policies)
     * @param inMemoryFlattens skiplist indices replaced by flat ones
     * @param inMemoryMerges pipeline indices merged into one flat segment, every version kept
     * @param inMemoryCompactions pipelines compacted into one segment, versions no reader can see dropped
     * @param inMemoryAborted in-memory flattens, merges and compactions given up because a disk flush
     *     took the pipeline
     * @param inMemoryBytesEliminated key and value bytes of versions dropped in memory: they never
     *     reached disk
     * @param adaptiveUniqueness ADAPTIVE's estimate u of the fraction of unique keys (1 when unknown)
     * @param adaptiveThrottle ADAPTIVE's throttle t, the probability of compacting once redundancy is
     *     high enough (0 otherwise)
     * @param chunksInUse MSLAB chunks (on- or off-heap, by layout) held by segments now
     * @param chunksFree MSLAB chunks kept in the pool for reuse
     * @param chunkPoolOffHeapBytes off-heap bytes the chunk pool has allocated (chunks in use and free);
     *     0 for the ON_HEAP layout
     */
    public record MemStore(long dataBytes, long heapBytes, long offHeapBytes, Segments skiplist, Segments flat,
            Segments serialized, int pipelineSegments, long inMemoryFlushes, long inMemoryFlattens,
            long inMemoryMerges, long inMemoryCompactions, long inMemoryAborted, long inMemoryBytesEliminated,
            double adaptiveUniqueness, double adaptiveThrottle, long chunksInUse, long chunksFree,
            long chunkPoolOffHeapBytes) {
        /** Requires the segment counts. */
        public MemStore {
            Objects.requireNonNull(skiplist, "skiplist");
            Objects.requireNonNull(flat, "flat");
            Objects.requireNonNull(serialized, "serialized");
        }

        /** Entries in segments of every kind. */
        public long entries() {
            return skiplist.entries + flat.entries + serialized.entries;
        }

        /** Tombstones among {@link #entries()}. */
        public long deletions() {
            return skiplist.deletions + flat.deletions + serialized.deletions;
        }
    }

    /**
     * The MemStore's segments of one kind.
     *
     * @param dataBytes key and value bytes they hold
     * @param heapBytes their estimated Java heap
     * @param entries cells they hold
     * @param deletions tombstones among those cells
     */
    public record Segments(long dataBytes, long heapBytes, long entries, long deletions) {
        /** Segments whose tombstones are not counted (another engine measured by the bench). */
        public Segments(long dataBytes, long heapBytes, long entries) {
            this(dataBytes, heapBytes, entries, 0);
        }
    }

    /**
     * Live tables per level, level 0 first.
     *
     * @param perLevel one entry per level of the engine, {@code perLevel.get(i).level() == i}; copied
     */
    public record Levels(List<Level> perLevel) {
        /** Copies the levels and checks they are numbered from 0 in order. */
        public Levels {
            perLevel = List.copyOf(perLevel);
            for (int i = 0; i < perLevel.size(); i++) {
                if (perLevel.get(i).level() != i) {
                    throw new IllegalArgumentException("level " + perLevel.get(i).level() + " at index " + i);
                }
            }
        }

        /** Number of levels, empty or not. */
        public int count() {
            return perLevel.size();
        }

        /** Level {@code level}. */
        public Level get(int level) {
            return perLevel.get(level);
        }

        /** Bytes of all live tables. */
        public long liveTableBytes() {
            long sum = 0;
            for (Level l : perLevel) {
                sum += l.bytes;
            }
            return sum;
        }

        /**
         * Bytes of user keys and values the live tables hold, every version, as their formats recorded them
         * when they were written; only levels whose tables all record it ({@link Level#userDataBytes}).
         */
        public long userDataBytes() {
            long sum = 0;
            for (Level l : perLevel) {
                sum += Math.max(0, l.userDataBytes);
            }
            return sum;
        }

        /**
         * Live table bytes / bytes of user data they hold, over the levels that know their data (a level
         * holding CL-tables does not); 0 when none does. The data counted is every version a table holds,
         * at least the live data, so this is a lower bound of the true figure, exact when no key has
         * versions in two tables (after {@code compactRange}, or a store written once); a store whose
         * tables are mostly structure over little data (a trie of near-empty HTables) shows it.
         */
        public double spaceAmplification() {
            long tables = 0;
            long data = 0;
            for (Level l : perLevel) {
                if (l.userDataBytes >= 0) {
                    tables += l.bytes;
                    data += l.userDataBytes;
                }
            }
            return data == 0 ? 0 : (double) tables / data;
        }

        /**
         * Keys the tables hold, estimated as RocksDB's {@code rocksdb.estimate-num-keys} is: entries minus
         * twice the tombstones (each is taken to delete one older entry), summed over the levels that know
         * their entries; tombstones a format does not record count as entries. Versions of a key in
         * several tables count once each until compaction merges them.
         */
        public long estimatedKeys() {
            long sum = 0;
            for (Level l : perLevel) {
                if (l.entries > 0) {
                    sum += l.entries - 2 * Math.max(0, l.deletions);
                }
            }
            return Math.max(0, sum);
        }

        /**
         * RocksDB's estimate: live table bytes / bytes of the last non-empty level; 0 when there are no tables.
         * It counts versions shadowed in the upper levels of a leveled store, and means little where the last
         * level does not hold nearly every key (LSM_TRIE's trie, a TRIAD store whose data is in CL-tables).
         */
        public double lastLevelSpaceAmplification() {
            for (int i = perLevel.size() - 1; i >= 0; i--) {
                if (perLevel.get(i).bytes > 0) {
                    return (double) liveTableBytes() / perLevel.get(i).bytes;
                }
            }
            return 0;
        }
    }

    /**
     * One level's live tables.
     *
     * @param level the level, 0 for the newest
     * @param tables table files in the level
     * @param bytes their total size
     * @param userDataBytes bytes of user keys and values they hold, every version ({@link Levels#userDataBytes});
     *     -1 when a table's format does not record it
     * @param entries entries they hold, every version and tombstone; -1 when not known
     * @param deletions tombstones among them; -1 when a table's format does not record them (HTables,
     *     CL-tables)
     */
    public record Level(int level, int tables, long bytes, long userDataBytes, long entries, long deletions) {
        /** A level whose entries are not known. */
        public Level(int level, int tables, long bytes, long userDataBytes) {
            this(level, tables, bytes, userDataBytes, -1, -1);
        }

        /** A level whose user data is not known (another engine measured by the bench). */
        public Level(int level, int tables, long bytes) {
            this(level, tables, bytes, -1);
        }
    }

    /**
     * Keys the engine holds, estimated without reading any data (RocksDB's {@code rocksdb.estimate-num-keys},
     * what Kafka Streams' {@code approximateNumEntries} returns): entries minus twice the tombstones (each
     * taken to delete one older entry), over the tables that know theirs ({@link Levels#estimatedKeys}) and
     * the MemStore. Overwrites not yet compacted away make it high, tombstones of keys never written make
     * it low; exact for a store written once and compacted.
     */
    public long estimatedKeys() {
        return Math.max(0, levels.estimatedKeys() + memstore.entries() - 2 * memstore.deletions());
    }

    /**
     * The figures as multi-line text for a log (RocksDB's {@code rocksdb.stats}): tables and bytes per level,
     * bytes written by cause, amplification, reads and the block cache hit rate, background work and stalls,
     * the MemStore, recovery and the scheme's own figures.
     */
    public String report() {
        return StatsReport.of(this);
    }

    /** The headline figures on one line: bytes by cause, amplification, stalls, background work, tables per level. */
    @Override
    public String toString() {
        List<Integer> tables = new ArrayList<>(levels.count());
        for (Level l : levels.perLevel()) {
            tables.add(l.tables());
        }
        return "EngineStats{userBytes=" + io.userBytesWritten() + ", walBytes=" + io.walBytesWritten()
                + ", flushBytes=" + io.flushBytesWritten() + ", compactionRead=" + io.compactionBytesRead()
                + ", compactionWritten=" + io.compactionBytesWritten() + ", writeAmp="
                + String.format("%.2f", io.writeAmplification()) + ", spaceAmp="
                + String.format("%.2f", levels.spaceAmplification()) + ", tablesProbedPerGet="
                + String.format("%.2f", reads.tablesProbedPerGet()) + ", stallMs=" + background.stallNanos() / 1_000_000
                + ", flushes=" + background.flushes() + ", compactions=" + background.compactions() + ", levelTables="
                + tables + ", tableIo=" + io.tableIoMode() + "}";
    }
}
