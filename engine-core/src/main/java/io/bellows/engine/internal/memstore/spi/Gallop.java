package io.bellows.engine.internal.memstore.spi;

/**
 * Galloping search (TimSort's): where a target goes in a sorted sequence, searched from a position
 * onwards, in about 2 log(distance) comparisons. In-memory merges of both layouts use it to place each
 * entry of a small segment in a large one without comparing the large one's entries in between. A
 * subclass holds the sequence and the current target, so a search allocates nothing.
 */
public abstract class Gallop {
    /** The sign of element {@code i} compared with the target; never 0 for distinct internal keys. */
    protected abstract int compareAt(int i);

    /** The first index in [from, n] whose element orders after the target (n if none does). */
    public final int firstAfter(int from, int n) {
        if (from >= n || compareAt(from) > 0) {
            return from;
        }
        int lo = from;
        int step = 1;
        int hi;
        while (true) {
            hi = lo + step;
            if (hi >= n) {
                hi = n;
                break;
            }
            if (compareAt(hi) > 0) {
                break;
            }
            lo = hi;
            step <<= 1;
        }
        // Element lo orders before the target; element hi after it, or hi == n.
        lo++;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareAt(mid) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
