package io.bellows.engine.internal.table.htable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * {@link #dest} and in ranks are the table's. Not thread-safe; one per window being built.
 */
final class BucketBalancer {
    final int base;
    final List<Item>[] contents;
    final int[] load;
    final int[] dest;
    final int[] mark;
    /** Item bytes each bucket moved out (ranks the buckets for the in-memory metadata). */
    final long[] moved;
    final List<Item> overflow = new ArrayList<>();

    @SuppressWarnings("unchecked")
    BucketBalancer(int base, int buckets) {
        this.base = base;
        contents = new List[buckets];
        load = new int[buckets];
        dest = new int[buckets];
        mark = new int[buckets];
        moved = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            contents[b] = new ArrayList<>();
            dest[b] = HTableFormat.NO_DEST;
        }
    }

    void add(Item item) {
        if (item.size > HTableFormat.MAX_BUCKET_ITEM) {
            overflow.add(item);
            return;
        }
        contents[item.home - base].add(item);
        load[item.home - base] += item.size;
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
            List<Item> items = inRankOrder(contents[src], base + src);
            contents[src] = items;
            int kept = 0;
            int bytes = 0;
            while (kept < items.size()) {
                int groupEnd = kept;
                int groupBytes = 0;
                int r = KeyHash.rank(items.get(kept).lo, base + src);
                while (groupEnd < items.size() && KeyHash.rank(items.get(groupEnd).lo, base + src) == r) {
                    groupBytes += items.get(groupEnd).size;
                    groupEnd++;
                }
                if (bytes + groupBytes > HTableFormat.PAYLOAD) {
                    break;
                }
                bytes += groupBytes;
                kept = groupEnd;
            }
            List<Item> out = new ArrayList<>(items.subList(kept, items.size()));
            items.subList(kept, items.size()).clear();
            mark[src] = KeyHash.rank(out.get(0).lo, base + src);
            moved[src] = load[src] - bytes;
            load[src] = bytes;
            if (toOverflow) {
                dest[src] = HTableFormat.OVERFLOW_DEST;
                overflow.addAll(out);
            } else {
                byLoad.remove(dst);
                dest[src] = base + dst;
                contents[dst].addAll(out);
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
    static List<Item> inRankOrder(List<Item> items, int b) {
        int n = items.size();
        long[] order = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = (long) (KeyHash.rank(items.get(i).lo, b) ^ Integer.MIN_VALUE) << 32 | i;
        }
        Arrays.sort(order);
        List<Item> out = new ArrayList<>(n);
        for (long o : order) {
            out.add(items.get((int) o));
        }
        return out;
    }
}
