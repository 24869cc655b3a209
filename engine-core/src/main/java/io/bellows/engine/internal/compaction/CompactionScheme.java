package io.bellows.engine.internal.compaction;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.SchemeState;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * The disk-layer policy of a store (docs/architecture.md, "CompactionScheme SPI"). It decides where a
 * flushed table lands, which compaction runs next, which tables a point lookup probes and in what
 * order, how a cursor's sources are built, how hard writers must be held back, and what scheme state
 * the manifest keeps ({@link SchemeState}). The engine, the manifest, table I/O and compaction
 * execution are shared by every scheme; a scheme with its own table format (LSM_TRIE) also supplies
 * how flushes and compactions write tables and how a get probes them (the default methods keep the
 * SSTable behaviour).
 *
 * <p>Thread safety: only {@link #pick} and {@link #pressure} are called under the engine lock (so
 * calls of those two never overlap). Every other method may run concurrently with them and with
 * each other, and a scheme synchronizes whatever mutable state they share:
 * <ul>
 *   <li>readers, without locks: {@link #candidates}, {@link #cursorSources}, {@link #get}, {@link #onSeek};
 *   <li>the flush thread, one flush at a time (recovery's flushes too): {@link #flushOutputs} and
 *       the sink it returns, {@link #placeFlush};
 *   <li>the obsolete-file sweep, one at a time: {@link #liveLogs}, {@link #tableDeleted};
 *   <li>compaction threads, several at once: {@link #compactionOutputs}, {@link #runCompaction},
 *       {@link #onCompacted} (after the compaction was picked, before its edit is logged);
 *   <li>{@code compactRange}'s thread: {@link #pickManual}, only while no other compaction runs;
 *   <li>the write leader under the engine lock, at each MemStore switch: {@link #planFlush}, and the
 *       plan's methods (whose {@code carries} the flush thread calls too);
 *   <li>the opening thread, once, after recovery and before any background work: {@link #recovered};
 *   <li>the version set, under its own monitor (one at a time): the {@link SchemeState} methods. What
 *       must be decided atomically with an install belongs in {@link SchemeState#prepare}.
 * </ul>
 */
public interface CompactionScheme extends SchemeState {
    CompactionStyle style();

    /** Records in {@code edit} where a table written by a MemStore flush goes. */
    void placeFlush(Version current, FileMeta table, VersionEdit edit);

    /**
     * Appends to {@code out} the tables that may hold {@code key}, in the order a lookup must probe
     * them: every version of the key in an earlier table is newer than any in a later one, so the
     * first table with an entry visible at the read sequence decides the answer.
     */
    void candidates(Version v, byte[] key, List<FileMeta> out);

    /**
     * The tables that may hold {@code key} as groups, for a scheme whose levels hold overlapping tables
     * with interleaved sequences (tiers): appends the tables to {@code out} in probe order and, to
     * {@code groupEnds}, the end index in {@code out} of each group. A get probes every table of a group
     * and keeps the entry with the highest sequence; the first group with an entry decides, so every
     * version of the key in an earlier group is newer than any in a later one. Default: each of
     * {@link #candidates} is a group of its own.
     */
    default void candidateGroups(Version v, byte[] key, List<FileMeta> out, IntArrayList groupEnds) {
        candidates(v, key, out);
        for (int i = 1; i <= out.size(); i++) {
            groupEnds.add(i);
        }
    }

    /**
     * A get probed {@code table} of {@code v}. Returns true when the reads make a compaction due
     * (read-triggered compaction), so the engine schedules one; should return true once per such
     * event, not on every later read. Called on the reader's thread without locks: must be cheap.
     */
    default boolean onTableRead(Version v, FileMeta table) {
        return false;
    }

    /** Iterators that together cover every table of {@code v}, for a merged cursor. */
    List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException;

    /**
     * The most urgent compaction, or null if none is needed or every candidate touches a table in
     * {@code busy} (inputs of running compactions).
     */
    Compaction pick(Version v, Set<Long> busy);

    /**
     * A compaction of every table of {@code level} meeting {@code [from, to]} into the next level, or
     * null if there is none. Used by {@code compactRange}, which runs with no other compaction.
     */
    Compaction pickManual(Version v, int level, byte[] from, byte[] to);

    /** How hard the backlog of {@code v} that the scheme counts itself (e.g. L0 tables) pushes back on writers. */
    WritePressure pressure(Version v);

    /**
     * An estimate of the bytes compaction must still write before every level of {@code v} is within
     * its target (RocksDB's estimated pending compaction bytes), which the engine holds against
     * {@code EngineOptions.pendingCompactionBytesLimits} besides {@link #pressure}, and reports in
     * {@code EngineStats}. A function of {@code v} alone: stats call it without the engine lock. Default 0:
     * the scheme does not estimate it, and only {@link #pressure} holds writers back.
     */
    default long pendingCompactionBytes(Version v) {
        return 0;
    }

    /** Adds to {@code edit} the scheme's own state changes after {@code c} ran (e.g. compaction cursors). */
    void onCompacted(Compaction c, VersionEdit edit);

    /**
     * A cursor was positioned by a seek at {@code key} while {@code lastSequence} was the latest write.
     * Returns true when this makes a compaction due (seek-based compaction), so the engine schedules
     * one. Called on the reader's thread without locks: must be cheap.
     */
    default boolean onSeek(byte[] key, long lastSequence) {
        return false;
    }

    /** Number of levels of this scheme's versions (for LSM_TRIE: the trie depth). */
    default int numLevels(EngineOptions options) {
        return options.numLevels();
    }

    /**
     * Registers the table formats this scheme writes other than SSTables (which every engine reads),
     * with whatever caches their readers need; called when the engine starts, before any read, for each
     * registry it keeps (the table cache's, and the stats' own, which opens tables without counting).
     */
    default void registerTableFormats(TableFormats formats, EngineCounters counters) {}

    /**
     * The sink a MemStore flush writes its entries to, in key order, before {@link #placeFlush} is
     * called for its tables (a scheme may watch the keys, e.g. to choose guards). Default: SSTables, one
     * per flush.
     */
    default TableSink flushOutputs(TableWriteContext ctx) {
        return new TableOutputs(ctx, null);
    }

    /**
     * The sink of a MemStore flush whose logged records are all in {@code logs} (closed WAL files, each
     * forced to its end when it was rolled; oldest first), so that a scheme may keep the flushed data where
     * it already is instead of copying it. A scheme whose tables point into logs declares them live
     * ({@link #liveLogs}) for as long as those tables exist. Default: {@link #flushOutputs(TableWriteContext)}.
     */
    default TableSink flushOutputs(TableWriteContext ctx, long[] logs) {
        return flushOutputs(ctx);
    }

    /**
     * Shows {@code out} every WAL file number a table in {@code tables} (the tables of every live version and
     * every flush or compaction output being written) still reads. The obsolete-file sweep keeps those logs
     * although recovery no longer replays them. Called by the sweep, concurrently with anything. Default: none.
     */
    default void liveLogs(LongPredicate tables, LongConsumer out) {}

    /** The file of table {@code number} was deleted: no live version holds it any more. Default: nothing. */
    default void tableDeleted(long number) {}

    /** The sink compaction {@code c} writes to. Default: SSTables cut by the compaction's splitter. */
    default TableSink compactionOutputs(Compaction c, TableWriteContext ctx) {
        return new TableOutputs(ctx, c.splitter());
    }

    /**
     * Executes {@code c} into {@code out} (made by {@link #compactionOutputs}) and returns the edit that
     * installs the result. On failure the caller abandons {@code out}. Default: {@link CompactionJob}.
     */
    default VersionEdit runCompaction(Compaction c, TableSource tables, long[] snapshots, TableSink out)
            throws IOException {
        return CompactionJob.run(c, tables, snapshots, out);
    }

    /**
     * Looks {@code key} up in the tables of {@code v} at {@code seq}: true with {@code out} set to the
     * newest entry visible there, false if no table holds one. Default: probes the
     * {@link #candidateGroups} in order, counting each probe in {@code counters.tablesProbed} and
     * reporting each to {@link #onTableRead}, which sets {@link Lookup#compactionDue} when it asks for a
     * compaction.
     */
    default boolean get(Version v, byte[] key, long seq, TableSource tables, boolean fillCache, Lookup out,
            EngineCounters counters) throws IOException {
        GetScratch scratch = GetScratch.acquire();
        try {
            List<FileMeta> candidates = scratch.candidates;
            IntArrayList groupEnds = scratch.groupEnds;
            candidateGroups(v, key, candidates, groupEnds);
            Lookup probe = scratch.probe;
            int start = 0;
            for (int g = 0; g < groupEnds.size(); g++) {
                int end = groupEnds.get(g);
                boolean found = false;
                for (int i = start; i < end; i++) {
                    FileMeta f = candidates.get(i);
                    if (found && f.maxSequence <= out.sequence) {
                        // Nothing in this table is newer than the entry already found: no need to read it.
                        continue;
                    }
                    counters.tablesProbed.increment();
                    if (onTableRead(v, f)) {
                        out.compactionDue = true;
                    }
                    if (end - start == 1) {
                        found = tables.get(f, key, seq, fillCache, out);
                    } else if (tables.get(f, key, seq, fillCache, probe) && (!found || probe.sequence > out.sequence)) {
                        out.set(probe);
                        found = true;
                    }
                }
                if (found) {
                    return true;
                }
                start = end;
            }
            return false;
        } finally {
            scratch.release();
        }
    }

    /**
     * An existing store is being opened with {@code v} as its current version, as the manifest left it:
     * a scheme that keeps in memory what its tables carry ({@link TableAnnotator}) loads it here. Called
     * before recovery writes anything (an exception refuses the open and leaves the store as it was);
     * the tables WAL replay then writes reach the scheme through its sinks, as a flush's do. Default:
     * nothing.
     */
    default void recovered(Version v, TableSource tables) throws IOException {}

    /**
     * The plan of a MemStore flush about to start, whose snapshot holds {@code entries} entries (every
     * version); null to write everything (the default). Called by the write leader under the engine lock
     * after the snapshot was taken and before any key is offered to the plan.
     */
    default FlushPlan planFlush(long entries) {
        return null;
    }

    /**
     * Whether this scheme's flush plans use update counts that in-memory compaction must keep (the MemStore
     * then counts the versions it drops). Default: false.
     */
    default boolean countsUpdates() {
        return false;
    }

    /**
     * The scheme's own running figures (decisions it made, estimates it used), by name; constant names,
     * reported in {@code EngineStats.scheme()} and as {@code bellows.scheme} gauges. Default: none.
     */
    default Map<String, Double> figures() {
        return Map.of();
    }
}
