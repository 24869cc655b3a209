package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;

/**
 * The HyperLogLog sketch of one table's user keys, with the exact number of keys it was built from: the
 * scheme metadata TRIAD stores with each L0 and L1 table (docs/formats/sstable.md, "TRIAD table
 * sketch"). Immutable once decoded or built.
 *
 * <pre>
 * metadata := format (1 byte, = 1) | varint64 keys | DataSketches HLL compact image (HLL_4, lg_k = 12)
 * </pre>
 *
 * <p>lg_k 12 (4096 buckets) is what the authors' RocksDB code uses and gives a relative standard error
 * of about 1.6% on a key count: the overlap ratio compared with OVERLAP_RATIO_TH (0.4) is then off by
 * about 0.01, and the compact HLL_4 image is at most about 2 KiB per table (a few dozen bytes for tables
 * of a few keys, which DataSketches keeps as a list).
 */
final class TableSketch {
    static final int LG_K = 12;
    static final byte FORMAT = 1;

    final long keys;
    final HllSketch hll;

    TableSketch(long keys, HllSketch hll) {
        this.keys = keys;
        this.hll = hll;
    }

    /** A new, empty sketch to add a table's keys to. */
    static HllSketch newSketch() {
        return new HllSketch(LG_K, TgtHllType.HLL_4);
    }

    byte[] encode() {
        byte[] image = hll.toCompactByteArray();
        byte[] out = new byte[1 + Coding.varLongSize(keys) + image.length];
        out[0] = FORMAT;
        int off = Coding.putVarLong(out, 1, keys);
        System.arraycopy(image, 0, out, off, image.length);
        return out;
    }

    /** Decodes {@code b}; IllegalArgumentException if it is not a sketch of this format. */
    static TableSketch decode(byte[] b) {
        if (b.length < 2 || b[0] != FORMAT) {
            throw new IllegalArgumentException("not a TRIAD table sketch (format byte " + (b.length == 0 ? "missing"
                    : Integer.toString(b[0] & 0xff)) + ")");
        }
        int[] pos = {1};
        long keys;
        HllSketch hll;
        try {
            keys = Coding.getVarLong(b, pos, b.length);
            hll = HllSketch.heapify(Arrays.copyOfRange(b, pos[0], b.length));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed TRIAD table sketch: " + e.getMessage(), e);
        }
        if (hll.getLgConfigK() != LG_K || keys < 0) {
            throw new IllegalArgumentException("TRIAD table sketch with lg_k " + hll.getLgConfigK() + " and " + keys
                    + " keys");
        }
        return new TableSketch(keys, hll);
    }
}
