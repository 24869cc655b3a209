package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;

/**
 * A get's reading of one bucket (docs/formats/htable.md, "Bucket"): finds a key's newest visible item
 * and hands its value over as a view of the page, decoding in place so that a get allocates nothing.
 */
final class BucketScan {
    private BucketScan() {}

    /**
     * Scans a bucket for the newest version of {@code key} at or below {@code seq} and returns the offset
     * of its item, or -1. Decodes in place, allocating nothing (a get's path).
     */
    static int find(byte[] page, byte[] key, long seq) {
        int n = Coding.getShort(page, 0);
        int p = HTableFormat.COUNT_LENGTH;
        int limit = HTableFormat.SOURCE_OFFSET;
        long best = -1;
        int bestAt = -1;
        for (int i = 0; i < n; i++) {
            int at = p;
            int valueAt = Coding.skipVarint(page, at, limit);
            int seqAt = Coding.skipVarint(page, valueAt, limit);
            int keyAt = Coding.skipVarint(page, seqAt, limit);
            long klen = Coding.varLongAt(page, at);
            long vlen = Coding.varLongAt(page, valueAt);
            // Lengths bounded first, so that their sum cannot overflow.
            long end = klen < 0 || klen > limit || vlen < 0 || vlen > limit ? Long.MAX_VALUE
                    : keyAt + klen + (vlen == 0 ? 0 : vlen - 1);
            if (end > limit) {
                throw new IllegalStateException("item " + i + " passes the bucket payload");
            }
            if (klen == key.length && Arrays.equals(page, keyAt, keyAt + key.length, key, 0, key.length)) {
                long s = Coding.varLongAt(page, seqAt);
                if (s <= seq && s > best) {
                    best = s;
                    bestAt = at;
                }
            }
            p = (int) end;
        }
        return bestAt;
    }

    /** The sequence of the item at {@code at}, which {@link #find} returned. */
    static long sequenceAt(byte[] page, int at) {
        int valueAt = Coding.skipVarint(page, at, HTableFormat.SOURCE_OFFSET);
        return Coding.varLongAt(page, Coding.skipVarint(page, valueAt, HTableFormat.SOURCE_OFFSET));
    }

    /**
     * The item at {@code at} into {@code out}, its value as a view of the page ({@link #find} checked that
     * the item lies within it): a cached page is never written again, and the read path copies the value
     * out once.
     */
    static void set(byte[] page, int at, Lookup out) {
        int valueAt = Coding.skipVarint(page, at, HTableFormat.SOURCE_OFFSET);
        int seqAt = Coding.skipVarint(page, valueAt, HTableFormat.SOURCE_OFFSET);
        int keyAt = Coding.skipVarint(page, seqAt, HTableFormat.SOURCE_OFFSET);
        long s = Coding.varLongAt(page, seqAt);
        long vlen = Coding.varLongAt(page, valueAt);
        if (vlen == 0) {
            out.set(s, InternalKeys.KIND_DELETE, null, 0, 0);
        } else {
            out.set(s, InternalKeys.KIND_PUT, page, keyAt + (int) Coding.varLongAt(page, at), (int) (vlen - 1));
        }
    }
}
