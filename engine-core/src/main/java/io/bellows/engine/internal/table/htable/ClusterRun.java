package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.util.Coding;

/**
 * One verified page run of a BloomCluster (format: {@link ClusterPacker}) with where each of its boxes
 * lies, found once when the run enters the filter cache: a get then goes straight to its column's box
 * instead of decoding the lengths of the boxes before it, which was a tenth of an LSM_TRIE get's CPU at
 * scale factor 64 (a pile's run holds a dozen boxes or more).
 */
final class ClusterRun {
    private final byte[] page;
    /** Box i's bytes are {@code page[bounds[2i], bounds[2i + 1])}. */
    private final int[] bounds;

    private ClusterRun(byte[] page, int[] bounds) {
        this.page = page;
        this.bounds = bounds;
    }

    /**
     * Indexes the boxes of {@code page}, a run whose CRC was checked or which was just written, and checks
     * that each box's entries lie within it, so that a {@link ClusterBox} over a cached run never meets a
     * malformed one (a checksum catches damage, not a writer's bug).
     *
     * @throws IllegalStateException if a box, or an entry of one, passes its bounds
     */
    static ClusterRun of(byte[] page) {
        int boxes = Coding.getShort(page, 0);
        int limit = page.length - ClusterPacker.RUN_TRAILER;
        int[] bounds = new int[2 * boxes];
        int p = ClusterPacker.RUN_HEADER;
        for (int i = 0; i < boxes; i++) {
            int boxAt = Coding.skipVarint(page, p, limit);
            long len = Coding.varLongAt(page, p);
            if (len < 0 || len > limit - boxAt) {
                throw new IllegalStateException("box " + i + " of " + len + " bytes passes the run");
            }
            bounds[2 * i] = boxAt;
            bounds[2 * i + 1] = boxAt + (int) len;
            checkBox(page, boxAt, boxAt + (int) len, i);
            p = boxAt + (int) len;
        }
        return new ClusterRun(page, bounds);
    }

    /** Box {@code i}, {@code page[start, end)}: varint tables, then per table varint number, varint length, filter. */
    private static void checkBox(byte[] page, int start, int end, int i) {
        int p = Coding.skipVarint(page, start, end);
        long tables = Coding.varLongAt(page, start);
        if (tables < 1 || tables > Integer.MAX_VALUE) {
            throw new IllegalStateException("box " + i + " of " + tables + " tables");
        }
        // Each entry takes at least two bytes, so a count beyond the box fails in the loop below.
        for (long t = 0; t < tables; t++) {
            int lengthAt = Coding.skipVarint(page, p, end);
            int filterAt = Coding.skipVarint(page, lengthAt, end);
            long len = Coding.varLongAt(page, lengthAt);
            if (len < 0 || len > end - filterAt) {
                throw new IllegalStateException("filter " + t + " of box " + i + " passes the box");
            }
            p = filterAt + (int) len;
        }
    }

    byte[] page() {
        return page;
    }

    int boxes() {
        return bounds.length / 2;
    }

    /** Start of box {@code i}'s bytes in {@link #page}. */
    int boxStart(int i) {
        return bounds[2 * i];
    }

    /** End (exclusive) of box {@code i}'s bytes in {@link #page}. */
    int boxEnd(int i) {
        return bounds[2 * i + 1];
    }

    /** Bytes this run holds on the heap, for the cache's budget. */
    long bytes() {
        return page.length + 4L * bounds.length;
    }
}
