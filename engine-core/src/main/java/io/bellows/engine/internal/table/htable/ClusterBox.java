package io.bellows.engine.internal.table.htable;

import io.bellows.engine.internal.table.BloomFilter;
import io.bellows.engine.internal.util.Coding;

/**
 * One bucket column of a BloomCluster: the filters of that bucket in the tables of a container's pile
 * as of the writing of the table it was read from. Answers for any table it covers, so one box read
 * serves a whole pile.
 *
 * <p>A flyweight over the cached page run: a get reuses one per thread ({@link #perThread()}, filled by
 * {@link HTableReader#clusterBox(int, boolean, ClusterBox)}) and decodes in place, so probing a pile
 * allocates nothing. A pile is probed newest first, the order the box lists its tables in, so each lookup
 * resumes where the last one ended and a pile costs one pass over its box. Not thread-safe.
 */
public final class ClusterBox {
    private static final ThreadLocal<ClusterBox> PER_THREAD = ThreadLocal.withInitial(ClusterBox::new);
    private byte[] page;
    private int start;
    private int end;
    /** Where the next table's entry starts, and how many entries precede it (a resumable scan). */
    private int next;
    private int index;
    private int tables;
    /** The table found by the last {@link #find} (-1: none), and its filter's offset and length. */
    private long foundNumber = -1;
    private int filterAt;
    private int filterLength;

    /** An empty box, to be filled by {@link HTableReader#clusterBox(int, boolean, ClusterBox)}. */
    public ClusterBox() {}

    /** This thread's box for gets, which use one at a time. */
    public static ClusterBox perThread() {
        return PER_THREAD.get();
    }

    ClusterBox(byte[] page, int start, int end) {
        set(page, start, end);
    }

    /** Points this box at {@code page[start, end)}. */
    ClusterBox set(byte[] page, int start, int end) {
        this.page = page;
        this.start = start;
        this.end = end;
        int first = Coding.skipVarint(page, start, end);
        this.tables = (int) Coding.varLongAt(page, start);
        this.next = first;
        this.index = 0;
        this.foundNumber = -1;
        return this;
    }

    /** Whether the box holds a filter of table {@code number}. */
    public boolean covers(long number) {
        return find(number);
    }

    /**
     * Whether table {@code number} may hold a key with bloom hash {@code bloomHash} in this column.
     * REQUIRES: {@link #covers}.
     */
    public boolean mayContain(long number, long bloomHash) {
        if (!find(number)) {
            throw new IllegalArgumentException("table " + number + " is not in this BloomCluster box");
        }
        return filterLength != 0 && BloomFilter.mayContainHash(page, filterAt, filterLength, bloomHash);
    }

    /**
     * Finds table {@code number}'s entry, from where the last search ended and then, if need be, once
     * more from the first entry; on success sets {@link #foundNumber}, {@link #filterAt} and
     * {@link #filterLength}.
     */
    private boolean find(long number) {
        if (number == foundNumber) {
            // A get asks covers() and then mayContain() of the same table.
            return true;
        }
        for (int pass = 0; pass < 2; pass++) {
            while (index < tables) {
                int lengthAt = Coding.skipVarint(page, next, end);
                int at = Coding.skipVarint(page, lengthAt, end);
                long n = Coding.varLongAt(page, next);
                long len = Coding.varLongAt(page, lengthAt);
                if (len < 0 || len > end - at) {
                    throw new IllegalStateException("filter of " + len + " bytes passes the box");
                }
                next = at + (int) len;
                index++;
                if (n == number) {
                    foundNumber = n;
                    filterAt = at;
                    filterLength = (int) len;
                    return true;
                }
            }
            next = Coding.skipVarint(page, start, end);
            index = 0;
        }
        return false;
    }
}
