package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * Writes a BloomCluster: for each column, one box holding the filters of the bucket that column
 * nests in, in every table of the pile (newest first), packed into 4 KiB-aligned page runs so a lookup reads one run:
 *
 * <pre>
 *  run (one page, or several for a box larger than a page):
 *  +------------+-----------+---------------------------------------+---------+--------+
 *  | boxes  u16 | pages u16 | boxes: varint boxLength, box bytes ... | zeroes  | crc32c |
 *  +------------+-----------+---------------------------------------+---------+--------+
 *  box: varint tables, then per table: varint table number, varint filterLength, filter
 * </pre>
 *
 * The CRC (masked, little-endian) covers the run up to it. Columns never straddle runs.
 */
final class ClusterPacker {
    static final int RUN_HEADER = 4;
    static final int RUN_TRAILER = 4;

    private final HTableWriter.Out out;
    private final List<TableFilters> column;
    private final int columns;
    /** Where each run goes as it is written (null: nowhere), keyed by the new table's number. */
    private final FilterPageCache warm;
    private final long number;
    private int runs;

    /**
     * @param column the new table's filters, then those of the older tables of its pile, newest first.
     *     The cluster has as many columns as the largest of them has buckets, so that a box stays one
     *     page whatever the sizes: a smaller table's filter of bucket b is repeated in each of the
     *     columns that nest in b (bucket counts differ by powers of two).
     * @param warm the filter cache to put each run in as it is written (null: none), as table {@code number}'s
     */
    ClusterPacker(HTableWriter.Out out, List<TableFilters> column, FilterPageCache warm, long number) {
        this.out = out;
        this.column = column;
        this.warm = warm;
        this.number = number;
        int max = 0;
        for (TableFilters t : column) {
            max = Math.max(max, t.filters().length);
        }
        for (TableFilters t : column) {
            if (max % t.filters().length != 0 || Integer.bitCount(max / t.filters().length) != 1) {
                throw new IllegalStateException("table " + t.number() + " has " + t.filters().length
                        + " buckets, not the largest table's " + max + " divided by a power of two");
            }
        }
        this.columns = max;
    }

    /** Columns (boxes) of the cluster. */
    int columns() {
        return columns;
    }

    /** Writes the runs; appends (first bucket, pages) of each run to {@code index}; returns the run count. */
    int write(ByteArrayOutputStream index, byte[] scratch) throws IOException {
        ByteArrayOutputStream run = new ByteArrayOutputStream(HTableFormat.BUCKET_SIZE);
        int runFirst = 0;
        int runBoxes = 0;
        for (int b = 0; b < columns; b++) {
            byte[] box = box(b, scratch);
            int need = Coding.varLongSize(box.length) + box.length;
            if (runBoxes > 0 && run.size() + need > HTableFormat.BUCKET_SIZE - RUN_HEADER - RUN_TRAILER) {
                flushRun(run, runFirst, runBoxes, index, scratch);
                run.reset();
                runBoxes = 0;
            }
            if (runBoxes == 0) {
                runFirst = b;
            }
            HTableWriter.putVar(run, scratch, box.length);
            run.write(box, 0, box.length);
            runBoxes++;
        }
        if (runBoxes > 0) {
            flushRun(run, runFirst, runBoxes, index, scratch);
        }
        return runs;
    }

    private byte[] box(int b, byte[] scratch) {
        ByteArrayOutputStream box = new ByteArrayOutputStream(64);
        HTableWriter.putVar(box, scratch, column.size());
        for (TableFilters t : column) {
            byte[] f = t.filters()[b / (columns / t.filters().length)];
            HTableWriter.putVar(box, scratch, t.number());
            HTableWriter.putVar(box, scratch, f.length);
            box.write(f, 0, f.length);
        }
        return box.toByteArray();
    }

    private void flushRun(ByteArrayOutputStream run, int first, int boxes, ByteArrayOutputStream index, byte[] scratch)
            throws IOException {
        int body = RUN_HEADER + run.size() + RUN_TRAILER;
        int pages = (body + HTableFormat.BUCKET_SIZE - 1) / HTableFormat.BUCKET_SIZE;
        if (pages > 0xffff || boxes > 0xffff) {
            throw new IllegalStateException("BloomCluster run of " + pages + " pages");
        }
        byte[] page = new byte[pages * HTableFormat.BUCKET_SIZE];
        Coding.putShort(page, 0, boxes);
        Coding.putShort(page, 2, pages);
        byte[] content = run.toByteArray();
        System.arraycopy(content, 0, page, RUN_HEADER, content.length);
        int crcAt = page.length - RUN_TRAILER;
        Coding.putInt(page, crcAt, Checksums.maskedCrc32c(page, 0, crcAt));
        out.write(page, 0, page.length);
        if (warm != null) {
            warm.put(number, runs, ClusterRun.of(page));
        }
        runs++;
        HTableWriter.putVar(index, scratch, first);
        HTableWriter.putVar(index, scratch, pages);
    }
}
