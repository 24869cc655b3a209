package io.bellows.engine.internal.compaction.ptier;

import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * PTierDB's coexisted merge and move (§III.B.2): which tables of a level are merged into the next
 * level and which are moved there unchanged. The tables are cut into groups of N overlapping tables
 * (chains of key-range overlap), M of them multi-prefix and S single-prefix:
 * <ul>
 *   <li>N = 1: the table is moved;
 *   <li>N = 2: both are merged when M = 2 or S = 2, both moved when M = 1 and S = 1;
 *   <li>N &ge; 3: the tables holding a prefix that appears in three or more of them are merged; the
 *       single-prefix table of a prefix that appears twice is moved.
 * </ul>
 * Where the paper is silent (N &ge; 3, a table none of whose prefixes appears three times, e.g. two
 * multi-prefix tables sharing a prefix), the table is moved: the next level is a tier and may hold
 * overlapping tables. The tables to merge are then grouped by key-range overlap; each group becomes one
 * merge whose output is cut by {@link PrefixSplitter}, and groups never overlap each other.
 */
final class MergeMovePlanner {
    /** The decision for one level's tables. */
    record Plan(List<FileMeta> moves, List<List<FileMeta>> merges) {}

    private final Prefixes prefixes;

    MergeMovePlanner(Prefixes prefixes) {
        this.prefixes = prefixes;
    }

    /** Plans {@code tables}, which must be sorted by smallest key. */
    Plan plan(List<FileMeta> tables) {
        List<FileMeta> moves = new ArrayList<>();
        List<FileMeta> toMerge = new ArrayList<>();
        for (List<FileMeta> group : overlapGroups(tables)) {
            boolean[] merge = decide(group);
            for (int i = 0; i < group.size(); i++) {
                (merge[i] ? toMerge : moves).add(group.get(i));
            }
        }
        return new Plan(moves, overlapGroups(toMerge));
    }

    /** The rules above for one group of N overlapping tables: which of them are merged. */
    boolean[] decide(List<FileMeta> group) {
        int n = group.size();
        boolean[] merge = new boolean[n];
        if (n == 1) {
            return merge;
        }
        if (n == 2) {
            boolean single0 = prefixes.singlePrefix(group.get(0));
            boolean single1 = prefixes.singlePrefix(group.get(1));
            boolean both = single0 == single1;
            merge[0] = both;
            merge[1] = both;
            return merge;
        }
        // A prefix held by k tables is held by the one among them with the largest smallest key, and that
        // table's smallest prefix is held by all k: the tables' boundary prefixes are the only ones to count.
        for (FileMeta t : group) {
            markIfShared(group, t.smallestKey, merge);
            markIfShared(group, t.largestKey, merge);
        }
        return merge;
    }

    private void markIfShared(List<FileMeta> group, byte[] prefixOf, boolean[] merge) {
        int holders = 0;
        for (FileMeta t : group) {
            if (prefixes.holdsPrefixOf(t, prefixOf)) {
                holders++;
            }
        }
        if (holders >= 3) {
            for (int i = 0; i < group.size(); i++) {
                if (prefixes.holdsPrefixOf(group.get(i), prefixOf)) {
                    merge[i] = true;
                }
            }
        }
    }

    /** Chains of key-range overlap among {@code tables} (sorted by smallest key), in key order. */
    static List<List<FileMeta>> overlapGroups(List<FileMeta> tables) {
        List<List<FileMeta>> out = new ArrayList<>();
        List<FileMeta> current = null;
        byte[] reach = null;
        for (FileMeta t : tables) {
            if (current == null || Bytes.compare(t.smallestKey, reach) > 0) {
                current = new ArrayList<>();
                out.add(current);
                reach = t.largestKey;
            } else if (Bytes.compare(t.largestKey, reach) > 0) {
                reach = t.largestKey;
            }
            current.add(t);
        }
        return out;
    }
}
