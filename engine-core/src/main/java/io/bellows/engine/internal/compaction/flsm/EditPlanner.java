package io.bellows.engine.internal.compaction.flsm;

import com.carrotsearch.hppc.LongHashSet;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionEdit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * Completes one compaction's edit just before it is logged (under the version set's lock, so nothing
 * changes meanwhile): commits the uncommitted guards it can, deletes guards left empty, and records
 * the guard of every table the edit adds or moves.
 *
 * <p>A guard is committed at level L when it is committed at L+1 (or L is the last level), no table
 * of L after this edit straddles it, and no compaction still running that writes to L over its key
 * was picked before the guard was selected (such a compaction does not cut its output there). Going
 * deepest first keeps the guards of each level a subset of the next level's.
 *
 * <p>A committed guard is deleted when it holds no table at any level where it is committed: all the
 * data of its range is gone (paper §3.3). Its key range joins the preceding guard; nothing moves.
 *
 * <p>A committed guard of the output level that holds some data there, but less than
 * {@code guardMinBytes}, is retired at that level and every shallower one (paper §3.3: deleting
 * guards "when data in the level is spread unevenly among guards"; guards of a level stay a subset
 * of the next level's): its range joins the preceding guard's, whose tables it now shares, again
 * without moving data. Guards too dense for the data (a guard in every few keys) so stop costing a
 * table each per level. A retired guard stays known with its top level raised, so it no longer cuts
 * compaction output there; the retired guards inside a guard are selected back one level up once
 * it holds {@code 2 * guardMinBytes} for each guard it would then be divided into.
 */
final class EditPlanner {
    /** A compaction picked and not yet installed: the level it writes and the key range it covers. */
    record Running(int outputLevel, byte[] lo, byte[] hi, long epoch, Set<Long> inputs) {
        /** Whether {@code key} lies strictly inside the range, where an output table could straddle it. */
        boolean covers(byte[] key) {
            return (lo == null || Bytes.compare(key, lo) > 0) && (hi == null || Bytes.compare(key, hi) < 0);
        }
    }

    private final GuardSet guards;
    private final Version baseVersion;
    private final GuardIndex base;
    private final VersionEdit edit;
    private final int last;
    private final long minBytes;
    private final GuardHash hash;
    private final LongHashSet deleted = new LongHashSet();
    private final List<List<FileMeta>> added = new ArrayList<>();
    /** Guard -> shallowest level it is committed at after this edit, for guards this edit commits. */
    private final Map<GuardSet.Guard, Integer> newFrom = new IdentityHashMap<>();
    private final Map<GuardSet.Guard, Long> ids = new IdentityHashMap<>();
    /** Per level: keys (with ids) committed at that level by this edit. */
    private final List<TreeMap<byte[], Long>> committedNow = new ArrayList<>();
    /** Guards this edit deletes or retires: key -> deepest level it is gone from (last: everywhere). */
    private final TreeMap<byte[], Integer> removed = new TreeMap<>(Bytes.COMPARATOR);
    /** Per level: guard indexes (in the base) whose tables this edit re-places because their guard is retired there. */
    private final List<Set<Integer>> retiredAt = new ArrayList<>();

    private EditPlanner(GuardSet guards, Version baseVersion, GuardIndex base, VersionEdit edit, long minBytes,
            GuardHash hash) {
        this.guards = guards;
        this.minBytes = minBytes;
        this.hash = hash;
        this.baseVersion = baseVersion;
        this.base = base;
        this.edit = edit;
        this.last = base.numLevels() - 1;
        for (int level = 0; level <= last; level++) {
            added.add(new ArrayList<>());
            committedNow.add(new TreeMap<>(Bytes.COMPARATOR));
            retiredAt.add(new HashSet<>());
        }
    }

    /**
     * Completes {@code edit}; a no-op for edits that delete no table (flushes). Removes the edit's own
     * compaction from {@code running}.
     *
     * @throws IllegalStateException if an output table would straddle a committed guard (the
     *     compaction then fails before anything is logged and is picked again)
     */
    static void plan(GuardSet guards, Version baseVersion, GuardIndex base, VersionEdit edit, List<Running> running,
            long minBytes, GuardHash hash) {
        if (edit.deletedFiles().isEmpty()) {
            return;
        }
        long first = edit.deletedFiles().get(0).number();
        Running self = null;
        for (int i = 0; i < running.size(); i++) {
            if (running.get(i).inputs().contains(first)) {
                self = running.remove(i);
                break;
            }
        }
        new EditPlanner(guards, baseVersion, base, edit, minBytes, hash).run(self, running);
    }

    private void run(Running self, List<Running> running) {
        for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
            deleted.add(d.number());
        }
        for (VersionEdit.NewFile n : edit.newFiles()) {
            added.get(n.level()).add(n.meta());
        }
        commit(running);
        if (self != null) {
            deleteEmpty(self);
            if (minBytes > 0 && self.outputLevel() >= 1) {
                retireSmall(self);
                reinstate(self);
            }
        }
        List<VersionEdit.NewFile> newFiles = edit.newFiles();
        int count = newFiles.size();
        for (int i = 0; i < count; i++) {
            VersionEdit.NewFile n = newFiles.get(i);
            if (n.level() > 0) {
                edit.placeNewFile(i, place(n.level(), n.meta()));
            }
        }
        movePlacedTables();
        for (Map.Entry<GuardSet.Guard, Integer> e : newFrom.entrySet()) {
            edit.schemeRecord(GuardRecords.commit(e.getValue(), ids.get(e.getKey()), e.getKey().key));
        }
    }

    /**
     * Commits each uncommitted guard at every level, deepest first, where it can be: committed at the
     * level below, not cut by a running compaction that started before it, straddled by no table and
     * (with minBytes) not holding too little. One walk of the uncommitted guards, each going up while it
     * commits; a walk per level, over thousands of them, was 7% of FLSM's compaction thread at 20M entries. The
     * checks do not depend on other guards' commits, so the decisions are those of a walk per level.
     */
    private void commit(List<Running> running) {
        for (GuardSet.Guard g : guards.uncommitted().values()) {
            int top = Math.max(1, g.top);
            for (int level = g.committedFrom - 1; level >= top; level--) {
                if (blocked(g, level, running) || straddled(g.key, level) || (minBytes > 0 && small(level, g.key))) {
                    break;
                }
                newFrom.put(g, level);
                long id = ids.computeIfAbsent(g, x -> x.id != 0 ? x.id : guards.allocateId());
                for (int l = level; l < g.committedFrom; l++) {
                    committedNow.get(l).put(g.key, id);
                }
            }
        }
    }

    private static boolean blocked(GuardSet.Guard g, int level, List<Running> running) {
        for (Running r : running) {
            if (r.outputLevel() == level && r.epoch() < g.epoch && r.covers(g.key)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a table of {@code level} after this edit straddles {@code key}. */
    private boolean straddled(byte[] key, int level) {
        GuardLevel gl = base.levels[level];
        for (FileMeta f : gl.tables[gl.find(key)]) {
            if (!deleted.contains(f.number) && straddles(f, key)) {
                return true;
            }
        }
        for (FileMeta f : added.get(level)) {
            if (straddles(f, key)) {
                return true;
            }
        }
        return false;
    }

    private static boolean straddles(FileMeta f, byte[] key) {
        return Bytes.compare(f.smallestKey, key) < 0 && Bytes.compare(key, f.largestKey) <= 0;
    }

    /**
     * Deletes the committed guards in the compaction's range, and those enclosing it, that hold
     * nothing at any level.
     */
    private void deleteEmpty(Running self) {
        GuardLevel gl = base.levels[self.outputLevel()];
        int g = self.lo() == null ? 1 : Math.max(1, gl.find(self.lo()));
        for (; g < gl.guardCount(); g++) {
            byte[] key = gl.keys[g];
            if (self.hi() != null && Bytes.compare(key, self.hi()) >= 0) {
                break;
            }
            if (self.lo() != null && Bytes.compare(key, self.lo()) < 0) {
                continue;
            }
            deleteIfEmpty(key);
        }
        // The guards that enclose the range at shallower levels may have lost their last data too.
        if (self.lo() != null) {
            for (int level = 1; level < self.outputLevel(); level++) {
                GuardLevel enclosing = base.levels[level];
                int e = enclosing.find(self.lo());
                if (e > 0) {
                    deleteIfEmpty(enclosing.keys[e]);
                }
            }
        }
    }

    private void deleteIfEmpty(byte[] key) {
        GuardSet.Guard guard = guards.get(key);
        if (guard != null && !removed.containsKey(key) && !newFrom.containsKey(guard) && emptyEverywhere(guard)) {
            removed.put(key, last);
            edit.schemeRecord(GuardRecords.delete(key));
        }
    }

    private boolean removedAt(byte[] key, int level) {
        Integer deepest = removed.get(key);
        return deepest != null && level <= deepest;
    }

    /**
     * Retires the guards of the output level in the compaction's range (committed there or only cutting
     * output there) whose range at that level holds some data, but under minBytes, after this edit.
     */
    private void retireSmall(Running self) {
        int level = self.outputLevel();
        for (GuardSet.Guard guard : inRange(self.lo(), self.hi()).values()) {
            if (guard.top > level || removed.containsKey(guard.key) || newFrom.containsKey(guard)) {
                continue;
            }
            long bytes = rangeBytes(level, guard.key);
            if (bytes > 0 && bytes < minBytes) {
                retire(guard, level);
            }
        }
    }

    /** Known guards with keys in [lo, hi); nulls are open ends. */
    private NavigableMap<byte[], GuardSet.Guard> inRange(byte[] lo, byte[] hi) {
        NavigableMap<byte[], GuardSet.Guard> range = guards.all();
        if (lo != null) {
            range = range.tailMap(lo, true);
        }
        if (hi != null) {
            range = range.headMap(hi, false);
        }
        return range;
    }

    /** Whether a guard at {@code key} would hold some data, but under minBytes, at {@code level} after this edit. */
    private boolean small(int level, byte[] key) {
        long bytes = rangeBytes(level, key);
        return bytes > 0 && bytes < minBytes;
    }

    /**
     * Bytes of the tables of {@code level} after this edit that start in [key, the next guard cutting that
     * level): what a guard at {@code key} holds there.
     */
    private long rangeBytes(int level, byte[] key) {
        byte[] hi = null;
        for (GuardSet.Guard g : guards.all().tailMap(key, false).values()) {
            if (g.top <= level && !removedAt(g.key, level)) {
                hi = g.key;
                break;
            }
        }
        long bytes = 0;
        GuardLevel gl = base.levels[level];
        for (int g = gl.find(key); g < gl.guardCount(); g++) {
            if (g > 0 && hi != null && Bytes.compare(gl.keys[g], hi) >= 0) {
                break;
            }
            for (FileMeta f : gl.tables[g]) {
                if (!deleted.contains(f.number) && startsIn(f, key, hi)) {
                    bytes += f.fileSize;
                }
            }
        }
        for (FileMeta f : added.get(level)) {
            if (startsIn(f, key, hi)) {
                bytes += f.fileSize;
            }
        }
        return bytes;
    }

    private static boolean startsIn(FileMeta f, byte[] lo, byte[] hi) {
        return Bytes.compare(f.smallestKey, lo) >= 0 && (hi == null || Bytes.compare(f.smallestKey, hi) < 0);
    }

    /**
     * Uncommits {@code guard} at {@code level} and above, re-recording it from {@code level + 1} with its id
     * (at the last level: known, committed nowhere), and queues its tables there for re-placement.
     */
    private void retire(GuardSet.Guard guard, int level) {
        removed.put(guard.key, level);
        edit.schemeRecord(GuardRecords.delete(guard.key));
        // At the last level the guard stays known at top level numLevels (no level): a write of its key
        // must not select it straight back.
        edit.schemeRecord(GuardRecords.select(level + 1, guard.key));
        int committedFrom = Math.max(guard.committedFrom, level + 1);
        if (committedFrom <= last) {
            edit.schemeRecord(GuardRecords.commit(committedFrom, guard.id, guard.key));
        }
        for (int l = guard.committedFrom; l <= level; l++) {
            GuardLevel gl = base.levels[l];
            int g = gl.find(guard.key);
            if (g > 0 && Bytes.compare(gl.keys[g], guard.key) == 0) {
                retiredAt.get(l).add(g);
            }
        }
    }

    /**
     * Selects back, one level up, the guards retired at the output level inside each of its guards in
     * the compaction's range, once that guard holds {@code 2 * minBytes} per guard it would then be
     * divided into (a retired guard's top level is above the one its hash gives). The guards are chosen
     * by hash, so they split the range about evenly; measuring whole tables instead would wait for
     * tables to be cut inside the range, which only guards do.
     */
    private void reinstate(Running self) {
        int level = self.outputLevel();
        GuardLevel gl = base.levels[level];
        for (int g = self.lo() == null ? 0 : gl.find(self.lo()); g < gl.guardCount(); g++) {
            byte[] lo = gl.keys[g];
            if (g > 0 && self.hi() != null && Bytes.compare(lo, self.hi()) >= 0) {
                break;
            }
            if (g > 0 && removedAt(lo, level)) {
                continue;
            }
            byte[] hi = gl.upper(g);
            List<GuardSet.Guard> retired = new ArrayList<>();
            for (GuardSet.Guard x : between(lo, hi).values()) {
                int hashTop = hash.topLevel(x.key);
                if (x.top == level + 1 && hashTop >= 1 && hashTop <= level && !removed.containsKey(x.key)) {
                    retired.add(x);
                }
            }
            if (retired.isEmpty()) {
                continue;
            }
            long bytes = 0;
            for (FileMeta f : gl.tables[g]) {
                bytes += deleted.contains(f.number) ? 0 : f.fileSize;
            }
            for (FileMeta f : added.get(level)) {
                bytes += (lo == null || Bytes.compare(f.smallestKey, lo) >= 0) && (hi == null
                        || Bytes.compare(f.smallestKey, hi) < 0) ? f.fileSize : 0;
            }
            if (bytes >= 2 * minBytes * (retired.size() + 1)) {
                for (GuardSet.Guard x : retired) {
                    edit.schemeRecord(GuardRecords.select(level, x.key));
                }
            }
        }
    }

    /** Known guards with keys strictly inside (lo, hi); nulls are open ends. */
    private NavigableMap<byte[], GuardSet.Guard> between(byte[] lo, byte[] hi) {
        NavigableMap<byte[], GuardSet.Guard> range = guards.all();
        if (lo != null) {
            range = range.tailMap(lo, false);
        }
        if (hi != null) {
            range = range.headMap(hi, false);
        }
        return range;
    }

    /**
     * Whether nothing at any level, L0 included, overlaps the guard's range at its shallowest committed
     * level (its widest): all data of the range is gone, not merely moved on to a deeper level.
     */
    private boolean emptyEverywhere(GuardSet.Guard guard) {
        GuardLevel top = base.levels[guard.committedFrom];
        byte[] lo = guard.key;
        byte[] hi = top.upper(top.find(lo));
        for (FileMeta f : base.l0) {
            if (!deleted.contains(f.number) && meets(f, lo, hi)) {
                return false;
            }
        }
        for (int level = 0; level <= last; level++) {
            for (FileMeta f : added.get(level)) {
                if (meets(f, lo, hi)) {
                    return false;
                }
            }
            if (level == 0) {
                continue;
            }
            GuardLevel gl = base.levels[level];
            // The guard holding lo, then the following guards that start below hi.
            for (int g = gl.find(lo); g < gl.guardCount(); g++) {
                if (g > 0 && hi != null && Bytes.compare(gl.keys[g], hi) >= 0) {
                    break;
                }
                for (FileMeta f : gl.tables[g]) {
                    if (!deleted.contains(f.number) && meets(f, lo, hi)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean meets(FileMeta f, byte[] lo, byte[] hi) {
        return Bytes.compare(f.largestKey, lo) >= 0 && (hi == null || Bytes.compare(f.smallestKey, hi) < 0);
    }

    /** The id of the guard that holds {@code f} at {@code level} after this edit. */
    private long place(int level, FileMeta f) {
        GuardLevel gl = base.levels[level];
        TreeMap<byte[], Long> now = committedNow.get(level);
        int at = gl.find(f.smallestKey);
        int g = at;
        while (g > 0 && removedAt(gl.keys[g], level)) {
            g--;
        }
        byte[] key = gl.keys[g];
        long id = gl.ids[g];
        Map.Entry<byte[], Long> floor = now.floorEntry(f.smallestKey);
        if (floor != null && (key == null || Bytes.compare(floor.getKey(), key) > 0)) {
            key = floor.getKey();
            id = floor.getValue();
        }
        int u = at + 1;
        while (u < gl.guardCount() && removedAt(gl.keys[u], level)) {
            u++;
        }
        byte[] upper = u < gl.guardCount() ? gl.keys[u] : null;
        Map.Entry<byte[], Long> higher = now.higherEntry(f.smallestKey);
        if (higher != null && (upper == null || Bytes.compare(higher.getKey(), upper) < 0)) {
            upper = higher.getKey();
        }
        if (upper != null && Bytes.compare(f.largestKey, upper) >= 0) {
            throw new IllegalStateException("table " + f.number + " at level " + level + " would straddle guard "
                    + Bytes.toHex(upper) + " committed while it was written");
        }
        return id;
    }

    /**
     * Re-records the tables that a guard committed by this edit takes over from the guard that held them,
     * and those of guards this edit retires, which their preceding guards take over.
     */
    private void movePlacedTables() {
        for (int level = 1; level <= last; level++) {
            GuardLevel gl = base.levels[level];
            Set<Integer> seen = new HashSet<>();
            List<Integer> touched = new ArrayList<>();
            for (byte[] key : committedNow.get(level).keySet()) {
                touched.add(gl.find(key));
            }
            touched.addAll(retiredAt.get(level));
            for (int g : touched) {
                if (!seen.add(g)) {
                    continue;
                }
                for (FileMeta f : gl.tables[g]) {
                    if (deleted.contains(f.number)) {
                        continue;
                    }
                    long id = place(level, f);
                    if (id != baseVersion.placement(f.number)) {
                        edit.deleteFile(level, f.number).addFile(level, id, f);
                    }
                }
            }
        }
    }
}
