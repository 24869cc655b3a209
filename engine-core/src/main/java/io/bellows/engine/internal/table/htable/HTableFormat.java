package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.util.Coding;

/**
 * Constants of the HTable file format (spec: docs/formats/htable.md). Every offset below is relative
 * to the start of a 4 KiB bucket:
 *
 * <pre>
 *  0      2                                   4084     4086     4088       4092      4096
 *  +------+-----------------------------------+--------+--------+----------+---------+
 *  | n    | n items, zero padding             | source | dest   | HashMark | crc32c  |
 *  | u16  | (klen, vlen+1|0, seq varints,     | u16    | u16    | u32      | masked  |
 *  |      |  key, value)                      |        |        |          |         |
 *  +------+-----------------------------------+--------+--------+----------+---------+
 * </pre>
 *
 * All integers are little-endian. The CRC covers bytes [0, 4092).
 */
public final class HTableFormat {
    /**
     * Version 2 added the BloomCluster's column count to the metadata (tables sized by their data),
     * version 3 the balancing window (items move only within a window of {@link #WINDOW_BUCKETS}).
     */
    public static final int VERSION = 3;
    /** Oldest version readers accept: version 1 tables all have the store's bucket count, columns = buckets. */
    public static final int MIN_READ_VERSION = 1;
    public static final int BUCKET_SIZE = 4096;
    public static final int COUNT_LENGTH = 2;
    public static final int TRAILER_LENGTH = 12;
    /** Bytes of items a bucket holds. */
    public static final int PAYLOAD = BUCKET_SIZE - COUNT_LENGTH - TRAILER_LENGTH;
    public static final int SOURCE_OFFSET = BUCKET_SIZE - TRAILER_LENGTH;
    public static final int DEST_OFFSET = SOURCE_OFFSET + 2;
    public static final int MARK_OFFSET = SOURCE_OFFSET + 4;
    public static final int CRC_OFFSET = SOURCE_OFFSET + 8;
    /** Destination of a bucket that moved nothing out. */
    public static final int NO_DEST = 0xffff;
    /** Destination meaning "the overflow area". */
    public static final int OVERFLOW_DEST = 0xfffe;
    /** Bucket ids must stay below the two reserved destinations. */
    public static final int MAX_BUCKETS = 65000;
    /** An item larger than this goes straight to the overflow area: it would crowd a bucket out. */
    public static final int MAX_BUCKET_ITEM = PAYLOAD / 2;
    /** An HTable is filled to at most this fraction of its buckets' payload, so balancing succeeds. */
    public static final double MAX_FILL = 0.95;
    /**
     * Buckets of a balancing window (1 MiB): a table is written, and read in hash order, one window at a
     * time, so a compaction holds a window of each input and output instead of whole tables.
     */
    public static final int WINDOW_BUCKETS = 256;
    /** Share of buckets (the most migrated first) whose migration metadata readers keep in memory. */
    public static final double HOT_METADATA_FRACTION = 0.2;
    public static final int FOOTER_LENGTH = 24;
    /** "HTABLE!\0" read as a little-endian long. */
    public static final long FOOTER_MAGIC = 0x00_21_45_4c_42_41_54_48L;

    private HTableFormat() {}

    /** File offset of bucket {@code b}: page 0 holds the file header. */
    public static long bucketOffset(int b) {
        return (long) (b + 1) * BUCKET_SIZE;
    }

    /** Most item bytes a table of {@code buckets} buckets is filled with. */
    public static long capacity(int buckets) {
        return (long) (MAX_FILL * buckets * PAYLOAD);
    }

    /**
     * The bucket count of a table holding {@code dataBytes} of items in a store of {@code maxBuckets}:
     * the fewest of maxBuckets, maxBuckets / 2, maxBuckets / 4, ... (while the division is exact) whose
     * capacity holds the data. Dividing by powers of two keeps a key's home buckets nested: its bucket in
     * a table of n / 2 buckets is its bucket in a table of n, halved (see KeyHash#bucket), which is how
     * one BloomCluster box still covers tables of every size.
     */
    public static int bucketsFor(int maxBuckets, long dataBytes) {
        int n = maxBuckets;
        while ((n & 1) == 0 && capacity(n >> 1) >= dataBytes) {
            n >>= 1;
        }
        return n;
    }

    /** The balancing window of a table of {@code buckets} buckets written by this version. */
    public static int windowFor(int buckets) {
        return Math.min(WINDOW_BUCKETS, buckets);
    }

    /** Encoded size of an item: three varints, key, value. */
    public static int itemSize(int keyLength, int valueLength, long seq, boolean tombstone) {
        return Coding.varLongSize(keyLength) + Coding.varLongSize(tombstone ? 0 : valueLength + 1L)
                + Coding.varLongSize(seq) + keyLength + (tombstone ? 0 : valueLength);
    }
}
