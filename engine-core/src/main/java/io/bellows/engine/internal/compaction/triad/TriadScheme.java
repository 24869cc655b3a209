package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.CompactionPriority;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.FlushPlan;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.compaction.leveled.LeveledScheme;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableFormats;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * TRIAD (paper 004): LEVELED's picking and compaction for every level, composed with the paper's
 * techniques on L0 and the MemStore. The leveled part is a {@link LeveledScheme} this scheme holds and
 * forwards to (its compaction cursors are this scheme's manifest records), so the two never drift apart.
 */
public final class TriadScheme implements CompactionScheme {
    private final LeveledScheme leveled;
    /** TRIAD-DISK's state; null when it is off. */
    private final Sketches sketches;
    private final L0Deferral deferral;
    /** TRIAD-MEM's state; null when it is off. */
    private final HotKeyStats mem;
    /** TRIAD-LOG's switch; CL-tables written before are read whatever it says. */
    private final boolean log;
    private final TableLogs tableLogs = new TableLogs();
    private final ClTableStats logStats = new ClTableStats();
    /** Bits per key of the filter each CL-table builds over its index when opened (the SSTables' setting). */
    private final int bloomBitsPerKey;

    public TriadScheme(EngineOptions o) {
        TriadOptions t = (TriadOptions) o.compactionOptions();
        log = t.log();
        bloomBitsPerKey = o.bloomBitsPerKey();
        mem = t.mem() ? new HotKeyStats(t.hotFraction(), t.flushThreshold(), o.memstoreSize() / 2) : null;
        if (t.disk()) {
            sketches = new Sketches();
            deferral = new L0Deferral(t.overlapRatioThreshold(), t.l0MaxTables(), sketches);
            leveled = new LeveledScheme(o, t.dynamicLevelBytes(), CompactionPriority.ROUND_ROBIN, deferral::admit);
        } else {
            sketches = null;
            deferral = null;
            leveled = new LeveledScheme(o, t.dynamicLevelBytes(), CompactionPriority.ROUND_ROBIN, (v, c) -> c);
        }
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.TRIAD;
    }

    @Override
    public void placeFlush(Version current, FileMeta table, VersionEdit edit) {
        leveled.placeFlush(current, table, edit);
    }

    @Override
    public void candidates(Version v, byte[] key, List<FileMeta> out) {
        leveled.candidates(v, key, out);
    }

    @Override
    public List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException {
        return leveled.cursorSources(v, tables, fillCache);
    }

    @Override
    public Compaction pick(Version v, Set<Long> busy) {
        return leveled.pick(v, busy);
    }

    @Override
    public Compaction pickManual(Version v, int level, byte[] from, byte[] to) {
        return leveled.pickManual(v, level, from, to);
    }

    @Override
    public WritePressure pressure(Version v) {
        return leveled.pressure(v);
    }

    @Override
    public long pendingCompactionBytes(Version v) {
        return leveled.pendingCompactionBytes(v);
    }

    @Override
    public void onCompacted(Compaction c, VersionEdit edit) {
        leveled.onCompacted(c, edit);
    }

    @Override
    public void apply(byte[] record) {
        leveled.apply(record);
    }

    @Override
    public List<byte[]> snapshot() {
        return leveled.snapshot();
    }

    @Override
    public Comparator<FileMeta> tableOrder(int level) {
        return leveled.tableOrder(level);
    }

    /** Every flushed table carries its sketch (TRIAD-DISK). */
    @Override
    public TableSink flushOutputs(TableWriteContext ctx) {
        return new TableOutputs(ctx, null, sketches == null ? null : sketches.annotator());
    }

    /** TRIAD-LOG: the flushed versions stay in their logs, which become a CL-table with a sorted index. */
    @Override
    public TableSink flushOutputs(TableWriteContext ctx, long[] logs) {
        if (!log || logs.length == 0) {
            return flushOutputs(ctx);
        }
        return new ClTableSink(ctx, logs, sketches == null ? null : sketches.annotator(), tableLogs, logStats);
    }

    @Override
    public void registerTableFormats(TableFormats formats, EngineCounters counters) {
        formats.register(FileHeader.KIND_CLTABLE, (file, path, number) -> ClTableReader.open(file, path,
                formats.fileSystem(), formats.blockCache(), bloomBitsPerKey));
    }

    /** The logs of every CL-table still held by a live version or being written. */
    @Override
    public void liveLogs(LongPredicate tables, LongConsumer out) {
        tableLogs.live(tables, out);
    }

    @Override
    public void tableDeleted(long number) {
        tableLogs.remove(number);
    }

    /**
     * Tables an L0 compaction writes carry their sketch too: TRIAD-DISK's overlap ratio counts the tables L0
     * meets in the level it compacts into (L1, or the base level with dynamic level bytes), and only L0
     * compactions write that level.
     */
    @Override
    public TableSink compactionOutputs(Compaction c, TableWriteContext ctx) {
        boolean sketched = sketches != null && !c.inputs().isEmpty() && c.inputs().get(0).level() == 0;
        return new TableOutputs(ctx, c.splitter(), sketched ? sketches.annotator() : null);
    }

    @Override
    public void recovered(Version v, TableSource tables) throws IOException {
        // CL-tables are only ever L0 tables: L0 is never moved down without a merge.
        for (FileMeta f : v.files(0)) {
            if (tables.reader(f, OpenTable.class) instanceof ClTableReader cl) {
                tableLogs.put(f.number, cl.logs());
            }
        }
        if (sketches != null) {
            for (FileMeta f : v.files(0)) {
                sketches.load(f, tables);
            }
            for (FileMeta f : v.files(leveled.baseLevel(v))) {
                sketches.load(f, tables);
            }
        }
    }

    /** Forgets the sketches of tables an edit deletes (a table leaving L1 for L2 is no longer compared). */
    @Override
    public void prepare(Version base, VersionEdit edit) {
        leveled.prepare(base, edit);
        if (sketches != null) {
            for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
                sketches.remove(d.number());
            }
        }
    }

    /** TRIAD-DISK's sketches (tests); null when it is off. */
    Sketches sketches() {
        return sketches;
    }

    @Override
    public FlushPlan planFlush(long entries) {
        return mem == null ? null : mem.plan(entries);
    }

    @Override
    public boolean countsUpdates() {
        return mem != null;
    }

    @Override
    public Map<String, Double> figures() {
        Map<String, Double> m = new LinkedHashMap<>();
        if (mem != null) {
            m.putAll(mem.figures());
        }
        if (deferral != null) {
            m.putAll(deferral.figures());
        }
        if (log) {
            m.putAll(logStats.figures());
        }
        return m;
    }
}
