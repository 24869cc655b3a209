package io.bellows.engine.internal.compaction.flsm;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The FLSM view of one version: L0 as flushed, every deeper level divided by its committed guards,
 * and the guards due for compaction, most urgent first. Built once when the version is installed
 * ({@code SchemeState.index}) and shared by every reader of that version. Immutable.
 *
 * <p>Building checks the persisted guard membership: every table must lie inside one committed guard
 * of its level (no table straddles a guard) and its recorded placement must be that guard's id.
 */
final class GuardIndex {
    /** A guard due for compaction; {@code byBytes} when its byte cap (not its table count) made it due. */
    record Due(int level, int guard, double score, boolean byBytes) {}

    final List<FileMeta> l0;
    /** levels[0] is null; levels[1..] are the guarded levels. */
    final GuardLevel[] levels;
    final List<Due> due;

    private GuardIndex(List<FileMeta> l0, GuardLevel[] levels, List<Due> due) {
        this.l0 = l0;
        this.levels = levels;
        this.due = due;
    }

    /** The index of {@code v}; an empty one for the version a store starts from, before any install. */
    static GuardIndex of(Version v, int numLevels) {
        Object idx = v.schemeIndex();
        if (idx != null) {
            return (GuardIndex) idx;
        }
        GuardLevel[] levels = new GuardLevel[numLevels];
        for (int level = 1; level < numLevels; level++) {
            levels[level] = new GuardLevel(level, new byte[][] {null}, new long[] {0},
                    new FileMeta[][] {GuardLevel.NO_TABLES});
        }
        return new GuardIndex(v.files(0), levels, List.of());
    }

    /**
     * The index of {@code v} over its guarded levels {@code levels} (each built by {@link #buildLevel}
     * for {@code v}, or an earlier version's where neither the level's tables nor its guards changed).
     *
     * @param maxTables depth at which a guard is due
     * @param guardMaxBytes byte cap of a level-1 guard, doubled per level; the last level has none
     * @param smallTableBytes tables under this size count toward a guard's merge even when they do not
     *     overlap: a guard that took over the range of retired guards (EditPlanner) holds their small
     *     tables side by side, which only a merge consolidates
     */
    static GuardIndex of(Version v, GuardLevel[] levels, int maxTables, long guardMaxBytes, long smallTableBytes) {
        int numLevels = v.numLevels();
        int last = numLevels - 1;
        List<Due> due = new ArrayList<>();
        for (int level = 1; level < numLevels; level++) {
            GuardLevel gl = levels[level];
            long cap = level == last ? Long.MAX_VALUE : guardMaxBytes << Math.min(level - 1, 20);
            int trigger = level == last ? Math.max(2, maxTables) : maxTables;
            for (int g = 0; g < gl.guardCount(); g++) {
                if (gl.tables[g].length == 0) {
                    continue;
                }
                int small = 0;
                for (FileMeta f : gl.tables[g]) {
                    small += f.fileSize < smallTableBytes ? 1 : 0;
                }
                double byDepth = (double) Math.max(gl.depth[g], small) / trigger;
                double byBytes = level == last ? 0 : (double) gl.bytes[g] / cap;
                double score = Math.max(byDepth, byBytes);
                if (score >= 1) {
                    due.add(new Due(level, g, score, byBytes >= 1));
                }
            }
        }
        due.sort((a, b) -> Double.compare(b.score(), a.score()));
        return new GuardIndex(v.files(0), levels, Collections.unmodifiableList(due));
    }

    /**
     * Level {@code level} of {@code v} divided by the guards committed there.
     *
     * @throws IllegalStateException if a table straddles a committed guard or is recorded in another guard
     */
    static GuardLevel buildLevel(Version v, GuardSet guards, int level) {
        NavigableMap<byte[], GuardSet.Guard> committed = guards.committed(level);
        byte[][] k = new byte[committed.size() + 1][];
        long[] id = new long[k.length];
        int n = 1;
        for (GuardSet.Guard g : committed.values()) {
            k[n] = g.key;
            id[n] = g.id;
            n++;
        }
        List<List<FileMeta>> members = new ArrayList<>(k.length);
        for (int i = 0; i < k.length; i++) {
            members.add(null);
        }
        GuardLevel probe = new GuardLevel(level, k, id, emptyTables(k.length));
        for (FileMeta f : v.files(level)) {
            int g = guardOf(v, probe, f);
            if (members.get(g) == null) {
                members.set(g, new ArrayList<>());
            }
            members.get(g).add(f);
        }
        FileMeta[][] tables = new FileMeta[k.length][];
        for (int i = 0; i < k.length; i++) {
            tables[i] = members.get(i) == null ? GuardLevel.NO_TABLES : GuardLevel.sortedNewestFirst(members.get(i));
        }
        return new GuardLevel(level, k, id, tables);
    }

    /**
     * Level {@code prev.level} of {@code v}, given {@code prev}, the same level's layout over the list
     * {@code prevFiles} of an earlier version, with the same guards committed there: only the guards that
     * gained or lost a table are redone, as {@link #buildLevel} would (a compaction changes a few guards of
     * a level of thousands). Only the gained tables are checked; the others were when {@code prev} was built.
     *
     * @throws IllegalStateException if a gained table straddles a committed guard or is recorded in another guard
     */
    static GuardLevel updateLevel(Version v, GuardLevel prev, List<FileMeta> prevFiles) {
        List<FileMeta> files = v.files(prev.level);
        LongHashSet before = FileMeta.numbers(prevFiles);
        LongHashSet after = FileMeta.numbers(files);
        // Guard -> the tables it gained; a guard that only lost tables maps to an empty list.
        TreeMap<Integer, List<FileMeta>> changedGuards = new TreeMap<>();
        for (FileMeta f : prevFiles) {
            if (!after.contains(f.number)) {
                changedGuards.computeIfAbsent(prev.find(f.smallestKey), g -> new ArrayList<>());
            }
        }
        for (FileMeta f : files) {
            if (!before.contains(f.number)) {
                changedGuards.computeIfAbsent(guardOf(v, prev, f), g -> new ArrayList<>()).add(f);
            }
        }
        if (changedGuards.isEmpty()) {
            return prev;
        }
        int[] changed = new int[changedGuards.size()];
        FileMeta[][] tables = new FileMeta[changed.length][];
        int i = 0;
        for (Map.Entry<Integer, List<FileMeta>> e : changedGuards.entrySet()) {
            List<FileMeta> t = e.getValue();
            for (FileMeta f : prev.tables[e.getKey()]) {
                if (after.contains(f.number)) {
                    t.add(f);
                }
            }
            changed[i] = e.getKey();
            tables[i] = GuardLevel.sortedNewestFirst(t);
            i++;
        }
        return prev.withTables(changed, tables);
    }

    /** The guard of {@code layout} that table {@code f} of {@code v} lies in, checked against its placement. */
    private static int guardOf(Version v, GuardLevel layout, FileMeta f) {
        int g = layout.find(f.smallestKey);
        byte[] upper = layout.upper(g);
        if (upper != null && Bytes.compare(f.largestKey, upper) >= 0) {
            throw new IllegalStateException("table " + f.number + " at level " + layout.level + " straddles guard "
                    + Bytes.toHex(upper));
        }
        long placement = v.placement(f.number);
        if (placement != layout.ids[g]) {
            throw new IllegalStateException("table " + f.number + " at level " + layout.level + " is recorded in guard "
                    + placement + " but lies in guard " + layout.ids[g]);
        }
        return g;
    }

    private static FileMeta[][] emptyTables(int n) {
        FileMeta[][] t = new FileMeta[n][];
        for (int i = 0; i < n; i++) {
            t[i] = GuardLevel.NO_TABLES;
        }
        return t;
    }

    int numLevels() {
        return levels.length;
    }

    /** Whether no table of {@code fromLevel} or deeper may hold {@code key}. */
    boolean absentFrom(byte[] key, int fromLevel) {
        for (int level = Math.max(1, fromLevel); level < levels.length; level++) {
            if (levels[level].mayHold(key)) {
                return false;
            }
        }
        return true;
    }
}
