package io.bellows.engine.table.htable;

import io.bellows.engine.util.Bytes;
import java.util.ArrayList;
import java.util.Comparator;
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
 * <p>Not thread-safe; one per table being built.
 */
final class BucketBalancer {
    /** Same rank first by key, then newest first, so the versions of a key never straddle a HashMark. */
    private static final Comparator<Item> SAME_RANK = (a, b) -> {
        int c = Bytes.compare(a.key, b.key);
        return c != 0 ? c : Long.compare(b.seq, a.seq);
    };

    final List<Item>[] contents;
    final int[] load;
    final int[] dest;
    final int[] mark;
    /** Item bytes each bucket moved out (ranks the buckets for the in-memory metadata). */
    final long[] moved;
    final List<Item> overflow = new ArrayList<>();

    @SuppressWarnings("unchecked")
    BucketBalancer(int buckets) {
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
        contents[item.home].add(item);
        load[item.home] += item.size;
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
            List<Item> items = contents[src];
            items.sort(byRank(src));
            int kept = 0;
            int bytes = 0;
            while (kept < items.size()) {
                int groupEnd = kept;
                int groupBytes = 0;
                int r = KeyHash.rank(items.get(kept).lo, src);
                while (groupEnd < items.size() && KeyHash.rank(items.get(groupEnd).lo, src) == r) {
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
            mark[src] = KeyHash.rank(out.get(0).lo, src);
            moved[src] = load[src] - bytes;
            load[src] = bytes;
            if (toOverflow) {
                dest[src] = HTableFormat.OVERFLOW_DEST;
                overflow.addAll(out);
            } else {
                byLoad.remove(dst);
                dest[src] = dst;
                contents[dst].addAll(out);
                load[dst] += (int) moved[src];
                byLoad.add(dst);
            }
        }
    }

    /** Rank order within bucket {@code b}: unsigned rank, then key, then newest first. */
    static Comparator<Item> byRank(int b) {
        return Comparator.<Item>comparingInt(i -> KeyHash.rank(i.lo, b) ^ Integer.MIN_VALUE).thenComparing(SAME_RANK);
    }
}
