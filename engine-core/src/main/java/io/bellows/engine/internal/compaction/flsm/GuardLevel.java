package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One level of a version, divided by its committed guards. Guard 0 is the sentinel (keys before the
 * first guard); guard g &gt; 0 holds the tables in [keys[g], keys[g+1]). Tables of a guard are ordered
 * newest first. Immutable.
 */
final class GuardLevel {
    static final FileMeta[] NO_TABLES = new FileMeta[0];
    /** Newest first: by highest sequence, then by number. */
    static final Comparator<FileMeta> NEWEST_FIRST =
            Comparator.comparingLong((FileMeta f) -> f.maxSequence).thenComparingLong(f -> f.number).reversed();

    final int level;
    /** keys[0] is null (the sentinel); keys[1..] ascending. */
    final byte[][] keys;
    final long[] ids;
    final FileMeta[][] tables;
    final long[] bytes;
    /** Most tables of the guard that overlap at one key: what a lookup may probe, and what triggers a merge. */
    final int[] depth;
    final long totalBytes;
    final int tableCount;

    GuardLevel(int level, byte[][] keys, long[] ids, FileMeta[][] tables) {
        this.level = level;
        this.keys = keys;
        this.ids = ids;
        this.tables = tables;
        this.bytes = new long[keys.length];
        this.depth = new int[keys.length];
        long total = 0;
        int count = 0;
        for (int g = 0; g < keys.length; g++) {
            FileMeta[] t = tables[g];
            for (FileMeta f : t) {
                bytes[g] += f.fileSize;
            }
            depth[g] = overlapDepth(t);
            total += bytes[g];
            count += t.length;
        }
        this.totalBytes = total;
        this.tableCount = count;
    }

    int guardCount() {
        return keys.length;
    }

    /** The guard that holds {@code key}: the last guard key &lt;= key, or 0 (the sentinel). */
    int find(byte[] key) {
        int lo = 1;
        int hi = keys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.compare(keys[mid], key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    /** Inclusive lower bound of guard g; null for the sentinel. */
    byte[] lower(int g) {
        return keys[g];
    }

    /** Exclusive upper bound of guard g; null for the last guard. */
    byte[] upper(int g) {
        return g + 1 < keys.length ? keys[g + 1] : null;
    }

    /** Whether a table of the guard holding {@code key} may hold it. */
    boolean mayHold(byte[] key) {
        for (FileMeta f : tables[find(key)]) {
            if (f.contains(key)) {
                return true;
            }
        }
        return false;
    }

    /** The maximum number of tables whose ranges share a key (reached at some table's smallest key). */
    static int overlapDepth(FileMeta[] t) {
        if (t.length <= 1) {
            return t.length;
        }
        int max = 1;
        for (FileMeta a : t) {
            int n = 0;
            for (FileMeta b : t) {
                if (Bytes.compare(b.smallestKey, a.smallestKey) <= 0 && Bytes.compare(a.smallestKey, b.largestKey) <= 0) {
                    n++;
                }
            }
            max = Math.max(max, n);
        }
        return max;
    }

    static FileMeta[] sortedNewestFirst(List<FileMeta> files) {
        FileMeta[] a = files.toArray(NO_TABLES);
        Arrays.sort(a, NEWEST_FIRST);
        return a;
    }
}
