package io.bellows.engine.internal.table.htable;

import com.carrotsearch.hppc.IntArrayList;
import java.util.Arrays;
import java.util.TreeSet;

/**
 * The paper's greedy load balancing (§2.4.2, Figure 6). Buckets are kept ordered by load; the most
 * overloaded bucket (the source) keeps the items of lowest rank (its {@link KeyHash#rank}) that fit
 * and moves the rest, all items of rank at or above its HashMark, to the least loaded bucket (the
 * destination). A bucket is a source at most once and a former source is never a destination, so a
 * lookup can trust each bucket's single (destination, HashMark) pair; a destination that overflows
 * becomes a source itself later, which is how migration chains form. When no destination with room
 * is left, the remaining excess goes to the overflow area (destination {@link HTableFormat#OVERFLOW_DEST}).
 *
 * <p>One balancer serves one balancing window of a table (buckets {@code [base, base + size)},
 * docs/formats/htable.md): items move only between buckets of their window, so a table can be written,
 * and read in hash order, one window at a time. Arrays are indexed from {@code base}; bucket ids in
 * {@link #dest} and in ranks are the table's. Items are numbers in a {@link PackedItems}. Not thread-safe;
 * one per window being built.
 */
final class BucketBalancer {
    final PackedItems items;
    final int base;
    final IntArrayList[] contents;
    final int[] load;
    final int[] dest;
    final int[] mark;
    /** Item bytes each bucket moved out (ranks the buckets for the in-memory metadata). */
    final long[] moved;
    final IntArrayList overflow = new IntArrayList();

    BucketBalancer(PackedItems items, int base, int buckets) {
        this.items = items;
        this.base = base;
        contents = new IntArrayList[buckets];
        load = new int[buckets];
        dest = new int[buckets];
        mark = new int[buckets];
        moved = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            contents[b] = new IntArrayList();
            dest[b] = HTableFormat.NO_DEST;
        }
    }

    void add(int item) {
        int size = items.size(item);
        if (size > HTableFormat.MAX_BUCKET_ITEM) {
            overflow.add(item);
            return;
        }
        int b = items.home(item) - base;
        contents[b].add(item);
        load[b] += size;
    }

    /** Migrates until every bucket holds at most {@link HTableFormat#PAYLOAD} bytes. */
    void balance() {
        int n = load.length;
        TreeSet<Integer> byLoad = new TreeSet<>((a, b) -> load[a] != load[b] ? Integer.compare(load[a], load[b])
                : Integer.compare(a, b));
        for (int b = 0; b < n; b++) {
            byLoad.add(b);
        }
        while (!byLoad.isEmpty()) {
            int src = byLoad.pollLast();
            if (load[src] <= HTableFormat.PAYLOAD) {
                return;
            }
            Integer dst = byLoad.isEmpty() ? null : byLoad.first();
            boolean toOverflow = dst == null || load[dst] >= HTableFormat.PAYLOAD;
            IntArrayList ranked = inRankOrder(items, contents[src], base + src);
            contents[src] = ranked;
            int count = ranked.size();
            int kept = 0;
            int bytes = 0;
            while (kept < count) {
                int groupEnd = kept;
                int groupBytes = 0;
                int r = KeyHash.rank(items.lo(ranked.get(kept)), base + src);
                while (groupEnd < count && KeyHash.rank(items.lo(ranked.get(groupEnd)), base + src) == r) {
                    groupBytes += items.size(ranked.get(groupEnd));
                    groupEnd++;
                }
                if (bytes + groupBytes > HTableFormat.PAYLOAD) {
                    break;
                }
                bytes += groupBytes;
                kept = groupEnd;
            }
            mark[src] = KeyHash.rank(items.lo(ranked.get(kept)), base + src);
            moved[src] = load[src] - bytes;
            load[src] = bytes;
            IntArrayList to = toOverflow ? overflow : contents[dst];
            for (int i = kept; i < count; i++) {
                to.add(ranked.get(i));
            }
            ranked.elementsCount = kept;
            if (toOverflow) {
                dest[src] = HTableFormat.OVERFLOW_DEST;
            } else {
                byLoad.remove(dst);
                dest[src] = base + dst;
                load[dst] += (int) moved[src];
                byLoad.add(dst);
            }
        }
    }

    /**
     * The items of bucket {@code b} in rank order: unsigned rank, then the order they were added in.
     * Items arrive in key order and migrate in rank order, so the versions of a key stay adjacent
     * (they share a rank) and never straddle a HashMark. Sorts packed primitives: this runs for every
     * bucket of every table written.
     */
    static IntArrayList inRankOrder(PackedItems items, IntArrayList bucket, int b) {
        int n = bucket.size();
        long[] order = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = (long) (KeyHash.rank(items.lo(bucket.get(i)), b) ^ Integer.MIN_VALUE) << 32 | i;
        }
        Arrays.sort(order);
        IntArrayList out = new IntArrayList(n);
        for (long o : order) {
            out.add(bucket.get((int) o));
        }
        return out;
    }
}
