package io.bellows.engine.internal.compaction.ptier;

import io.bellows.engine.internal.compaction.CompactionJob;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * PTIER's read-side index of one version: per level of overlapping tables (sorted by smallest key), the
 * running maximum of their largest keys, so that the tables holding a key are found by one binary
 * search and a backward scan that stops as soon as no earlier table can reach the key; the level's
 * runs of disjoint tables for cursors; the read budgets of the largest level's tables that overlap
 * another (the read-triggered intra-level merge) and the key most of its tables hold (the space
 * trigger); the largest level is the deepest one holding tables. Immutable once built, except the budgets' counters.
 */
final class TierIndex {
    private final FileMeta[][] files;
    private final byte[][][] reach;
    private final List<List<List<FileMeta>>> runs;
    private final Map<FileMeta, AtomicInteger> readBudgets;
    /** The deepest level below L0 that holds tables (the paper's largest level), or -1. */
    private final int largestLevel;
    /** The most tables of the largest level holding one key, and the smallest such key (null if none). */
    private int largestLevelDepth;
    private byte[] deepestKey;

    TierIndex(Version v, Map<FileMeta, AtomicInteger> readBudgets) {
        int n = v.numLevels();
        files = new FileMeta[n][];
        reach = new byte[n][][];
        runs = new ArrayList<>(n);
        for (int level = 0; level < n; level++) {
            List<FileMeta> l = v.files(level);
            files[level] = l.toArray(new FileMeta[0]);
            reach[level] = new byte[l.size()][];
            byte[] max = null;
            for (int i = 0; i < l.size(); i++) {
                byte[] hi = l.get(i).largestKey;
                max = max == null || Bytes.compare(hi, max) > 0 ? hi : max;
                reach[level][i] = max;
            }
            runs.add(level == 0 ? List.of() : CompactionJob.disjointRuns(new ArrayList<>(l)));
        }
        this.readBudgets = readBudgets;
        largestLevel = largestLevel(v);
        if (largestLevel > 0) {
            findDeepestKey(v.files(largestLevel));
        }
    }

    /**
     * The paper's L<sub>k-1</sub>, "the largest level", where most lookups end: the deepest level below L0
     * holding tables, or -1. Until a store has grown into its last configured level this is a middle
     * level, and read-triggered and space-triggered merges apply there.
     */
    static int largestLevel(Version v) {
        for (int level = v.numLevels() - 1; level >= 1; level--) {
            if (!v.files(level).isEmpty()) {
                return level;
            }
        }
        return -1;
    }

    int largestLevel() {
        return largestLevel;
    }

    /** A sweep over the largest level's tables by smallest key, keeping the largest keys of those still open. */
    private void findDeepestKey(List<FileMeta> last) {
        PriorityQueue<byte[]> open = new PriorityQueue<>(Bytes.COMPARATOR);
        for (FileMeta f : last) {
            while (!open.isEmpty() && Bytes.compare(open.peek(), f.smallestKey) < 0) {
                open.poll();
            }
            open.add(f.largestKey);
            if (open.size() > largestLevelDepth) {
                largestLevelDepth = open.size();
                deepestKey = f.smallestKey;
            }
        }
    }

    /** The most tables of the largest level that hold one key (its sorted runs at that key). */
    int largestLevelDepth() {
        return largestLevelDepth;
    }

    /** A key held by {@link #largestLevelDepth()} tables of the largest level, or null. */
    byte[] deepestKey() {
        return deepestKey;
    }

    /**
     * Appends to {@code out} the tables of {@code level} (>= 1) whose key range holds {@code key}, in
     * descending order of smallest key.
     */
    void holding(int level, byte[] key, List<FileMeta> out) {
        FileMeta[] l = files[level];
        int lo = 0;
        int hi = l.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.compare(l[mid].smallestKey, key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        byte[][] r = reach[level];
        for (int i = lo - 1; i >= 0 && Bytes.compare(r[i], key) >= 0; i--) {
            if (Bytes.compare(l[i].largestKey, key) >= 0) {
                out.add(l[i]);
            }
        }
    }

    /** Runs of disjoint tables covering {@code level} (>= 1), for one concatenating iterator each. */
    List<List<FileMeta>> runs(int level) {
        return runs.get(level);
    }

    /** The read budget of {@code table} if it is a table of the largest level overlapping another, else null. */
    AtomicInteger readBudget(FileMeta table) {
        return readBudgets.get(table);
    }

    /** Builds the budgets of {@code v}'s largest level, keeping the counts of tables that stay. */
    static Map<FileMeta, AtomicInteger> budgets(Version v, Map<Long, AtomicInteger> previous, ReadLimit limit) {
        Map<FileMeta, AtomicInteger> out = new IdentityHashMap<>();
        int level = largestLevel(v);
        if (level < 0) {
            return out;
        }
        List<FileMeta> last = v.files(level);
        byte[] reachBefore = null;
        for (int i = 0; i < last.size(); i++) {
            FileMeta f = last.get(i);
            boolean overlapsEarlier = reachBefore != null && Bytes.compare(f.smallestKey, reachBefore) <= 0;
            boolean overlapsLater = i + 1 < last.size() && Bytes.compare(last.get(i + 1).smallestKey, f.largestKey) <= 0;
            if (overlapsEarlier || overlapsLater) {
                AtomicInteger b = previous.get(f.number);
                out.put(f, b != null ? b : new AtomicInteger(limit.reads(f)));
            }
            reachBefore = reachBefore == null || Bytes.compare(f.largestKey, reachBefore) > 0 ? f.largestKey : reachBefore;
        }
        return out;
    }

    /** How many reads a table takes before it asks for an intra-level merge. */
    interface ReadLimit {
        int reads(FileMeta table);
    }
}
