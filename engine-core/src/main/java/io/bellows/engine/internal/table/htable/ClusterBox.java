package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.util.Coding;

/**
 * One bucket column of a BloomCluster: the filters of that bucket in the tables of a container's pile
 * as of the writing of the table it was read from. Answers for any table it covers, so one box read
 * serves a whole pile.
 */
public final class ClusterBox {
    private final byte[] page;
    private final int start;
    private final int end;

    ClusterBox(byte[] page, int start, int end) {
        this.page = page;
        this.start = start;
        this.end = end;
    }

    /** Whether the box holds a filter of table {@code number}. */
    public boolean covers(long number) {
        return find(number) >= 0;
    }

    /**
     * Whether table {@code number} may hold a key with bloom hash {@code bloomHash} in this column.
     * REQUIRES: {@link #covers}.
     */
    public boolean mayContain(long number, long bloomHash) {
        int[] pos = {find(number)};
        if (pos[0] < 0) {
            throw new IllegalArgumentException("table " + number + " is not in this BloomCluster box");
        }
        int len = Coding.getVarInt(page, pos, end);
        return len != 0 && BloomFilter.decode(page, pos[0], len).mayContainHash(bloomHash);
    }

    /** Offset of table {@code number}'s filter length varint, or -1. */
    private int find(long number) {
        int[] pos = {start};
        int tables = Coding.getVarInt(page, pos, end);
        for (int i = 0; i < tables; i++) {
            long n = Coding.getVarLong(page, pos, end);
            if (n == number) {
                return pos[0];
            }
            int len = Coding.getVarInt(page, pos, end);
            pos[0] += len;
        }
        return -1;
    }
}
