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
    /**
     * The first 16 bytes of each guard key ({@code [2g]}, {@code [2g + 1]}) and, per guard, of its tables'
     * smallest and largest keys ({@code [4i]} to {@code [4i + 3]}), as {@link Bytes#prefixAt} longs: a
     * lookup's binary search and range checks read these contiguous arrays and a key's own bytes only on a
     * tie. Reading each guard key's array and each table's FileMeta and key arrays instead, scattered over
     * the heap, was a third of an FLSM get's CPU on a 20M-key store (a last level of thousands of guards).
     */
    private final long[] keyPrefixes;
    private final long[][] boundPrefixes;

    GuardLevel(int level, byte[][] keys, long[] ids, FileMeta[][] tables) {
        this(level, keys, ids, tables, keyPrefixes(keys), new long[keys.length], new int[keys.length],
                new long[keys.length][], null);
    }

    /**
     * Computes the per-guard figures of the guards {@code changed} (all when null); the others' are
     * already in the arrays given.
     */
    private GuardLevel(int level, byte[][] keys, long[] ids, FileMeta[][] tables, long[] keyPrefixes, long[] bytes,
            int[] depth, long[][] boundPrefixes, int[] changed) {
        this.level = level;
        this.keys = keys;
        this.ids = ids;
        this.tables = tables;
        this.keyPrefixes = keyPrefixes;
        this.bytes = bytes;
        this.depth = depth;
        this.boundPrefixes = boundPrefixes;
        if (changed == null) {
            for (int g = 0; g < keys.length; g++) {
                describe(g);
            }
        } else {
            for (int g : changed) {
                describe(g);
            }
        }
        long total = 0;
        int count = 0;
        for (int g = 0; g < keys.length; g++) {
            total += bytes[g];
            count += tables[g].length;
        }
        this.totalBytes = total;
        this.tableCount = count;
    }

    /**
     * This level with the tables of guards {@code changed[i]} replaced by {@code newTables[i]} (newest
     * first): the guards' keys and every other guard's figures are shared, not recomputed.
     */
    GuardLevel withTables(int[] changed, FileMeta[][] newTables) {
        FileMeta[][] t = tables.clone();
        for (int i = 0; i < changed.length; i++) {
            t[changed[i]] = newTables[i];
        }
        return new GuardLevel(level, keys, ids, t, keyPrefixes, bytes.clone(), depth.clone(), boundPrefixes.clone(),
                changed);
    }

    private static long[] keyPrefixes(byte[][] keys) {
        long[] p = new long[2 * keys.length];
        for (int g = 0; g < keys.length; g++) {
            if (keys[g] != null) {
                p[2 * g] = Bytes.prefixAt(keys[g], 0, keys[g].length, 0);
                p[2 * g + 1] = Bytes.prefixAt(keys[g], 0, keys[g].length, 8);
            }
        }
        return p;
    }

    /** Sets guard g's bytes, overlap depth and table bound prefixes from its tables. */
    private void describe(int g) {
        FileMeta[] t = tables[g];
        long[] b = new long[4 * t.length];
        long sum = 0;
        for (int i = 0; i < t.length; i++) {
            byte[] lo = t[i].smallestKey;
            byte[] hi = t[i].largestKey;
            b[4 * i] = Bytes.prefixAt(lo, 0, lo.length, 0);
            b[4 * i + 1] = Bytes.prefixAt(lo, 0, lo.length, 8);
            b[4 * i + 2] = Bytes.prefixAt(hi, 0, hi.length, 0);
            b[4 * i + 3] = Bytes.prefixAt(hi, 0, hi.length, 8);
            sum += t[i].fileSize;
        }
        boundPrefixes[g] = b;
        bytes[g] = sum;
        depth[g] = overlapDepth(t);
    }

    int guardCount() {
        return keys.length;
    }

    /** The guard that holds {@code key}: the last guard key &lt;= key, or 0 (the sentinel). */
    int find(byte[] key) {
        return find(key, Bytes.prefixAt(key, 0, key.length, 0), Bytes.prefixAt(key, 0, key.length, 8));
    }

    /** {@link #find(byte[])} given the key's first 16 bytes ({@link Bytes#prefixAt} at 0 and 8). */
    int find(byte[] key, long k0, long k1) {
        int lo = 1;
        int hi = keys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Bytes.comparePrefixed(keyPrefixes[2 * mid], keyPrefixes[2 * mid + 1], keys[mid], k0, k1, key) <= 0) {
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
        long k0 = Bytes.prefixAt(key, 0, key.length, 0);
        long k1 = Bytes.prefixAt(key, 0, key.length, 8);
        int g = find(key, k0, k1);
        for (int i = 0; i < tables[g].length; i++) {
            if (covers(g, i, key, k0, k1)) {
                return true;
            }
        }
        return false;
    }

    /** Whether table {@code i} of guard {@code g} has {@code key} (first 16 bytes {@code k0}, {@code k1}) in its range. */
    boolean covers(int g, int i, byte[] key, long k0, long k1) {
        long[] b = boundPrefixes[g];
        FileMeta f = tables[g][i];
        return Bytes.comparePrefixed(b[4 * i], b[4 * i + 1], f.smallestKey, k0, k1, key) <= 0
                && Bytes.comparePrefixed(k0, k1, key, b[4 * i + 2], b[4 * i + 3], f.largestKey) <= 0;
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
