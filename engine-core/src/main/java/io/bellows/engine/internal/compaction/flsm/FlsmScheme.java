package io.bellows.engine.internal.compaction.flsm;

import com.carrotsearch.hppc.IntArrayList;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.FlsmOptions;
import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.CompactionScheme;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.WritePressure;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * PebblesDB's fragmented LSM (paper 001 §3-§4; docs/architecture.md, "CompactionScheme SPI").
 *
 * <p>Layout: L0 holds whole flushes, as in LEVELED. Every deeper level is divided by guards
 * ({@link GuardHash}); a level's tables may overlap, but none straddles a committed guard of its
 * level, so a key lives in one guard per level. A table's guard is its manifest placement.
 *
 * <p>Compaction: L0 at {@code l0CompactionTrigger} tables is merged whole into L1. A guard whose
 * tables overlap {@code FlsmOptions.maxTablesPerGuard} deep, or that holds more than its byte cap, is merged
 * and the result cut at the next level's guards, each piece appended to its child guard as one new
 * table: the children's tables are not rewritten. The last level merges a full guard in place; so
 * does the level above it when the last level is over {@link #HORIZONTAL_RATIO} times its size (the
 * paper's 25x rule: pushing down would mostly rewrite last-level data). A compaction always takes
 * every table of its guard, which keeps the newer version of a key in the newer table of a guard
 * and at the shallower level.
 *
 * <p>Guards are chosen at flush time from the flushed keys and recorded uncommitted with the flush;
 * compactions cut their output at them, and {@link EditPlanner} commits them (deletes empty ones,
 * and retires at a level those holding under {@code FlsmOptions.guardMinBytes} there) in the edits of
 * later compactions.
 *
 * <p>Thread safety: {@link #candidates} and {@link #cursorSources} read only the version's immutable
 * {@link GuardIndex}; everything touching the guard set or the running compactions synchronizes on
 * this object.
 */
public final class FlsmScheme implements CompactionScheme {
    /** Last-to-second-last level size ratio above which the second-last level merges in place. */
    static final int HORIZONTAL_RATIO = 25;

    private final int numLevels;
    private final int last;
    private final int l0Trigger;
    private final int l0Slowdown;
    private final int l0Stop;
    private final int maxTables;
    private final long guardMaxBytes;
    private final long guardMinBytes;
    /**
     * Tables under this size count toward a guard's merge even when they do not overlap (the small
     * tables of retired guards): guardMinBytes, but at most half the target file size. A merge cuts its
     * output at the target size, so its tables are then not small again; with a target under
     * guardMinBytes every output counted as small, and a last-level guard of four or more tables was
     * merged in place, into as many tables, for ever.
     */
    private final long smallTableBytes;
    private final long targetFileSize;
    private final boolean parallelSeeks;
    private final GuardHash hash;
    private final SeekTracker seeks;
    private final GuardSet guards;
    /** Guards chosen by the flush in progress, for its edit: key -> top level. */
    private final TreeMap<byte[], Integer> selected = new TreeMap<>(Bytes.COMPARATOR);
    private final List<EditPlanner.Running> running = new ArrayList<>();
    /** The last guard layout built per level, with the table list and guard generation it was built from. */
    private final GuardLevel[] built;
    private final List<List<FileMeta>> builtFrom;
    private final long[] builtGeneration;

    public FlsmScheme(EngineOptions o) {
        numLevels = o.numLevels();
        last = numLevels - 1;
        l0Trigger = o.l0CompactionTrigger();
        l0Slowdown = o.l0SlowdownTrigger();
        l0Stop = o.l0StopTrigger();
        FlsmOptions f = (FlsmOptions) o.compactionOptions();
        maxTables = f.maxTablesPerGuard();
        guardMaxBytes = f.guardMaxBytes();
        guardMinBytes = f.guardMinBytes();
        targetFileSize = o.targetFileSize();
        smallTableBytes = Math.min(guardMinBytes, targetFileSize / 2);
        parallelSeeks = f.parallelSeeks();
        hash = new GuardHash(f.topLevelBits(), f.bitDecrement(), numLevels);
        seeks = new SeekTracker(f.seekCompactionThreshold());
        guards = new GuardSet(numLevels);
        built = new GuardLevel[numLevels];
        builtFrom = new ArrayList<>(Collections.nCopies(numLevels, (List<FileMeta>) null));
        builtGeneration = new long[numLevels];
    }

    @Override
    public CompactionStyle style() {
        return CompactionStyle.FLSM;
    }

    // ---------------------------------------------------------------- flush and guard selection

    /** Flushes write SSTables as every scheme does, choosing guards from the keys on the way. */
    @Override
    public TableSink flushOutputs(TableWriteContext ctx) {
        return new GuardSelectingSink(this, new TableOutputs(ctx, null));
    }

    /** Sees each entry a flush writes, in key order, before the flush's tables are placed. */
    void observeFlushedKey(Slice view, int kind) {
        // Deletes choose no guards (as in PebblesDB): a guard should mark where data is.
        if (kind != InternalKeys.KIND_PUT) {
            return;
        }
        int top = hash.topLevel(view.array(), view.offset(), view.length());
        if (top < 0) {
            return;
        }
        // Only a guard is kept, so only a guard's key is copied out of the view.
        byte[] key = view.copy();
        synchronized (this) {
            // A known guard is left as it is: one retired as too small is selected back by its data
            // (EditPlanner), not by the next write of its key.
            if (guards.get(key) == null) {
                selected.merge(key, top, Math::min);
            }
        }
    }

    @Override
    public synchronized void placeFlush(Version current, FileMeta table, VersionEdit edit) {
        edit.addFile(0, table);
        for (Map.Entry<byte[], Integer> e : selected.entrySet()) {
            edit.schemeRecord(GuardRecords.select(e.getValue(), e.getKey()));
        }
        selected.clear();
    }

    // ---------------------------------------------------------------- reads

    /**
     * The candidate groups flattened. Tables of one guard overlap and their sequences interleave (a
     * guard's fragments arrive from different compactions of the level above, and neither the newest
     * number nor the highest sequence holds the newest version of every key), so nothing may stop at
     * the first hit here: lookups go through {@link #candidateGroups}.
     */
    @Override
    public void candidates(Version v, byte[] key, List<FileMeta> out) {
        candidateGroups(v, key, out, new IntArrayList());
    }

    /** Each L0 table holding the key alone, newest first; then per deeper level, its guard's tables holding it. */
    @Override
    public void candidateGroups(Version v, byte[] key, List<FileMeta> out, IntArrayList groupEnds) {
        GuardIndex idx = GuardIndex.of(v, numLevels);
        for (FileMeta f : idx.l0) {
            if (f.contains(key)) {
                out.add(f);
                groupEnds.add(out.size());
            }
        }
        long k0 = Bytes.prefixAt(key, 0, key.length, 0);
        long k1 = Bytes.prefixAt(key, 0, key.length, 8);
        for (int level = 1; level < numLevels; level++) {
            GuardLevel gl = idx.levels[level];
            if (gl.tableCount == 0) {
                continue;
            }
            int before = out.size();
            // Highest sequence first, so a get can skip the tables that cannot hold a newer entry.
            int g = gl.find(key, k0, k1);
            FileMeta[] t = gl.tables[g];
            for (int i = 0; i < t.length; i++) {
                if (gl.covers(g, i, key, k0, k1)) {
                    out.add(t[i]);
                }
            }
            if (out.size() > before) {
                groupEnds.add(out.size());
            }
        }
    }

    @Override
    public List<InternalIterator> cursorSources(Version v, TableSource tables, boolean fillCache) throws IOException {
        GuardIndex idx = GuardIndex.of(v, numLevels);
        List<InternalIterator> out = new ArrayList<>();
        tables.addIterators(idx.l0, fillCache, out);
        for (int level = 1; level < numLevels; level++) {
            if (idx.levels[level].tableCount > 0) {
                // Only the last level's tables are likely to be uncached (paper §4.2).
                out.add(new GuardLevelIterator(idx.levels[level], tables, fillCache, parallelSeeks && level == last));
            }
        }
        return out;
    }

    @Override
    public boolean onSeek(byte[] key, long lastSequence) {
        return seeks.onSeek(key, lastSequence);
    }

    // ---------------------------------------------------------------- picking

    @Override
    public synchronized Compaction pick(Version v, Set<Long> busy) {
        running.removeIf(r -> !busy.containsAll(r.inputs()));
        GuardIndex idx = GuardIndex.of(v, numLevels);
        double l0Score = (double) idx.l0.size() / l0Trigger;
        boolean l0Tried = false;
        for (GuardIndex.Due d : idx.due) {
            if (!l0Tried && l0Score >= d.score()) {
                l0Tried = true;
                Compaction c = pickL0(idx, busy);
                if (c != null) {
                    return c;
                }
            }
            Compaction c = pickGuard(idx, d.level(), d.guard(), d.byBytes(), busy, "guard full");
            if (c != null) {
                return c;
            }
        }
        if (!l0Tried && l0Score >= 1) {
            Compaction c = pickL0(idx, busy);
            if (c != null) {
                return c;
            }
        }
        byte[] seekKey = seeks.takeDue();
        return seekKey == null ? null : pickForSeeks(idx, seekKey, busy);
    }

    private Compaction pickL0(GuardIndex idx, Set<Long> busy) {
        if (idx.l0.size() < l0Trigger) {
            return null;
        }
        for (FileMeta f : idx.l0) {
            if (busy.contains(f.number)) {
                return null;
            }
        }
        return build(idx, 0, idx.l0, 1, null, null, "L0 has " + idx.l0.size() + " tables");
    }

    /** Compacts guard {@code g} of {@code level}: down to the next level, or in place at the bottom. */
    private Compaction pickGuard(GuardIndex idx, int level, int g, boolean byBytes, Set<Long> busy, String why) {
        GuardLevel gl = idx.levels[level];
        FileMeta[] tables = gl.tables[g];
        for (FileMeta f : tables) {
            if (busy.contains(f.number)) {
                return null;
            }
        }
        boolean inPlace = level == last || (level == last - 1 && !byBytes
                && idx.levels[last].totalBytes > HORIZONTAL_RATIO * gl.totalBytes);
        int small = 0;
        for (FileMeta f : tables) {
            small += f.fileSize < smallTableBytes ? 1 : 0;
        }
        // Merging in place gains nothing unless tables overlap or small ones can be joined.
        if (inPlace && gl.depth[g] < 2 && small < 2) {
            if (level == last) {
                return null;
            }
            inPlace = false;
        }
        String reason = why + " L" + level + " guard " + (g == 0 ? "sentinel" : Bytes.toHex(gl.keys[g]))
                + (inPlace ? " (in place)" : "");
        return build(idx, level, List.of(tables), inPlace ? level : level + 1, gl.lower(g), gl.upper(g), reason);
    }

    /** Seek-based compaction: the guard under {@code key} with the most overlapping tables, if any overlap. */
    private Compaction pickForSeeks(GuardIndex idx, byte[] key, Set<Long> busy) {
        int bestLevel = -1;
        int bestGuard = -1;
        int bestDepth = 1;
        for (int level = 1; level < numLevels; level++) {
            GuardLevel gl = idx.levels[level];
            int g = gl.find(key);
            if (gl.depth[g] > bestDepth) {
                bestLevel = level;
                bestGuard = g;
                bestDepth = gl.depth[g];
            }
        }
        return bestLevel < 0 ? null : pickGuard(idx, bestLevel, bestGuard, false, busy, "seeks");
    }

    @Override
    public synchronized Compaction pickManual(Version v, int level, byte[] from, byte[] to) {
        // compactRange runs with no other compaction: whatever is still listed has failed.
        running.clear();
        if (level >= last) {
            return null;
        }
        GuardIndex idx = GuardIndex.of(v, numLevels);
        if (level == 0) {
            for (FileMeta f : idx.l0) {
                if (f.overlaps(from, to)) {
                    return build(idx, 0, idx.l0, 1, null, null, "manual");
                }
            }
            return null;
        }
        GuardLevel gl = idx.levels[level];
        List<FileMeta> inputs = new ArrayList<>();
        int firstGuard = -1;
        int lastGuard = -1;
        for (int g = 0; g < gl.guardCount(); g++) {
            boolean hit = false;
            for (FileMeta f : gl.tables[g]) {
                hit |= f.overlaps(from, to);
            }
            if (hit) {
                // Whole guards only: a guard's newest table must keep the newest versions.
                inputs.addAll(List.of(gl.tables[g]));
                firstGuard = firstGuard < 0 ? g : firstGuard;
                lastGuard = g;
            }
        }
        if (inputs.isEmpty()) {
            return null;
        }
        return build(idx, level, inputs, level + 1, gl.lower(firstGuard), gl.upper(lastGuard), "manual");
    }

    /**
     * A compaction of {@code inputs} (all of one level, covering [lo, hi)) into {@code outputLevel},
     * cut at that level's guards, registered as running until its edit is prepared.
     */
    private Compaction build(GuardIndex idx, int level, List<FileMeta> inputs, int outputLevel, byte[] lo, byte[] hi,
            String reason) {
        List<Compaction.Input> in = new ArrayList<>(inputs.size());
        Set<Long> numbers = new HashSet<>();
        for (FileMeta f : inputs) {
            in.add(new Compaction.Input(level, f));
            numbers.add(f.number);
        }
        GuardSplitter splitter = new GuardSplitter(guards.cutKeys(outputLevel, lo, hi), targetFileSize);
        // Tables of the output level that are not inputs may hold older versions, so they count too.
        int deeperFrom = outputLevel == level ? level + 1 : outputLevel;
        running.add(new EditPlanner.Running(outputLevel, lo, hi, guards.epoch(), numbers));
        return new Compaction(in, outputLevel, false, splitter, key -> idx.absentFrom(key, deeperFrom), reason);
    }

    @Override
    public WritePressure pressure(Version v) {
        return WritePressure.of(v.files(0).size(), l0Slowdown, l0Stop);
    }

    @Override
    public void onCompacted(Compaction c, VersionEdit edit) {
        // Guard commits and deletions are decided in prepare, atomically with the install.
    }

    // ---------------------------------------------------------------- persistent state

    @Override
    public synchronized void apply(byte[] record) {
        guards.apply(record);
    }

    /**
     * L0 newest first; deeper levels by smallest key, the order guards are cut from (fragments within a
     * guard overlap and are told apart by sequence).
     */
    @Override
    public Comparator<FileMeta> tableOrder(int level) {
        return level == 0 ? FileMeta.NEWEST_FIRST : FileMeta.BY_SMALLEST_KEY;
    }

    @Override
    public synchronized List<byte[]> snapshot() {
        return guards.snapshot();
    }

    @Override
    public synchronized void prepare(Version base, VersionEdit edit) {
        EditPlanner.plan(guards, base, GuardIndex.of(base, numLevels), edit, running, guardMinBytes, hash);
    }

    /** The guard set (tests inspect it; callers synchronize on this scheme). */
    GuardSet guards() {
        return guards;
    }

    GuardHash hash() {
        return hash;
    }

    /**
     * Builds a version's index, reusing the guard layout of each level whose tables (the same list, see
     * VersionSet's builder) and committed guards did not change since the last one built, and updating
     * the guards that gained or lost tables where only the tables changed. A flush changes only L0 and a
     * compaction two levels, and rebuilding every level of a store of 10,000 guards took the flush thread
     * about 30 ms per flush, under the version lock: most of what FLSM's writers waited for at 20M entries
     * and scale factor 64. Rebuilding the two levels a compaction changed was then still a quarter of the
     * compaction thread's samples there (a last level of 31,000 guards).
     */
    @Override
    public synchronized Object index(Version v) {
        GuardLevel[] levels = new GuardLevel[numLevels];
        for (int level = 1; level < numLevels; level++) {
            List<FileMeta> files = v.files(level);
            long generation = guards.generation(level);
            if (built[level] == null || builtGeneration[level] != generation) {
                built[level] = GuardIndex.buildLevel(v, guards, level);
            } else if (builtFrom.get(level) != files) {
                built[level] = GuardIndex.updateLevel(v, built[level], builtFrom.get(level));
            }
            builtFrom.set(level, files);
            builtGeneration[level] = generation;
            levels[level] = built[level];
        }
        return GuardIndex.of(v, levels, maxTables, guardMaxBytes, smallTableBytes);
    }
}
