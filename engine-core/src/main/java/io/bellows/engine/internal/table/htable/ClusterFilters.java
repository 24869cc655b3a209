package io.bellows.engine.internal.table.htable;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The filters a table's BloomCluster holds for itself and the older tables of its pile, taken back out as
 * {@link TableFilters} to cluster again into a newer table of the same container.
 *
 * <p>A table added to a pile clusters the filters of every table under it. Reading each of those
 * tables' own filters costs one read (and often one open) per table; at scale factor 64, with piles of
 * eight 128 KiB tables, those reads took a third of LSM_TRIE's compaction thread. The pile's newest
 * table already holds all of them in its cluster, which is one read.
 *
 * <p>A box holds, per table, the filter of the bucket its column nests in, so a table of {@code n}
 * buckets appears {@code columns / n} times. The filters are given back at the fewest buckets whose
 * columns repeat them: the true bucket count, or fewer where neighbouring buckets' filters happen to
 * be byte-identical (both empty, say). Every column of a cluster built from them holds the same bytes
 * as one built from the tables' own filters, as long as the largest table's buckets do not collapse so.
 */
public final class ClusterFilters {
    private ClusterFilters() {}

    /** A table's BloomCluster as {@link HTableReader#readCluster} read it: runs, by first column, start page and pages. */
    record Area(Path path, long offset, int columns, int[] runFirst, int[] runStart, int[] runPages, byte[] bytes) {}

    /** A table's own filters, {@code buckets} of them as stored at {@code offset} (CRC already checked). */
    static TableFilters own(long number, int buckets, byte[] b, Path path, long offset) {
        byte[][] out = new byte[buckets][];
        int[] pos = {0};
        try {
            for (int i = 0; i < buckets; i++) {
                int len = Coding.getVarInt(b, pos, b.length);
                out[i] = Arrays.copyOfRange(b, pos[0], pos[0] + len);
                pos[0] += len;
            }
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            throw new CorruptionException(path, offset, "malformed HTable filters: " + e.getMessage(), e);
        }
        return new TableFilters(number, out);
    }

    /** The filters clustered in {@code r}, by table number (its own included). */
    public static Map<Long, TableFilters> read(HTableReader r) throws IOException {
        Area a = r.readCluster();
        Map<Long, byte[][]> byTable = new HashMap<>();
        for (int run = 0; run < a.runFirst().length; run++) {
            int start = a.runStart()[run] * HTableFormat.BUCKET_SIZE;
            int limit = start + a.runPages()[run] * HTableFormat.BUCKET_SIZE - ClusterPacker.RUN_TRAILER;
            try {
                parseRun(a.bytes(), start, limit, a.runFirst()[run], a.columns(), byTable);
            } catch (IllegalStateException | IndexOutOfBoundsException e) {
                throw new CorruptionException(a.path(), a.offset() + start,
                        "malformed BloomCluster run " + run + ": " + e.getMessage(), e);
            }
        }
        Map<Long, TableFilters> out = new HashMap<>(byTable.size() * 2);
        for (Map.Entry<Long, byte[][]> e : byTable.entrySet()) {
            byte[][] f = e.getValue();
            for (int c = 0; c < a.columns(); c++) {
                if (f[c] == null) {
                    throw new CorruptionException(a.path(), a.offset(),
                            "BloomCluster lacks table " + e.getKey() + " in column " + c);
                }
            }
            out.put(e.getKey(), new TableFilters(e.getKey(), collapse(f)));
        }
        return out;
    }

    private static void parseRun(byte[] area, int start, int limit, int firstColumn, int columns,
            Map<Long, byte[][]> byTable) {
        int boxes = Coding.getShort(area, start);
        if (firstColumn + boxes > columns) {
            throw new IllegalStateException("columns " + firstColumn + "+" + boxes + " of " + columns);
        }
        int[] pos = {start + ClusterPacker.RUN_HEADER};
        for (int i = 0; i < boxes; i++) {
            int boxLength = Coding.getVarInt(area, pos, limit);
            int boxEnd = pos[0] + boxLength;
            if (boxEnd > limit) {
                throw new IllegalStateException("box of " + boxLength + " bytes past its run");
            }
            int tables = Coding.getVarInt(area, pos, boxEnd);
            for (int t = 0; t < tables; t++) {
                long number = Coding.getVarLong(area, pos, boxEnd);
                int length = Coding.getVarInt(area, pos, boxEnd);
                if (length > boxEnd - pos[0]) {
                    throw new IllegalStateException("filter of " + length + " bytes past its box");
                }
                byTable.computeIfAbsent(number, k -> new byte[columns][])[firstColumn + i] =
                        Arrays.copyOfRange(area, pos[0], pos[0] + length);
                pos[0] += length;
            }
            if (pos[0] != boxEnd) {
                throw new IllegalStateException("box ends at " + pos[0] + ", not " + boxEnd);
            }
        }
    }

    /** Halves {@code f} while each pair of neighbours is byte-identical (bucket b of n/2 nests columns 2b, 2b+1 of n). */
    static byte[][] collapse(byte[][] f) {
        byte[][] cur = f;
        while (cur.length % 2 == 0) {
            for (int b = 0; b < cur.length; b += 2) {
                if (!Arrays.equals(cur[b], cur[b + 1])) {
                    return cur;
                }
            }
            byte[][] half = new byte[cur.length / 2][];
            for (int b = 0; b < half.length; b++) {
                half[b] = cur[2 * b];
            }
            cur = half;
        }
        return cur;
    }
}
