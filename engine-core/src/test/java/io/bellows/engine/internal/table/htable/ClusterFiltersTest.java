package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterFiltersTest {
    /**
     * A table clustering its pile from the newest table's BloomCluster is written byte for byte as one
     * clustering the pile tables' own filters, over tables of three sizes.
     */
    @Test
    void clusterGivesBackThePilesOwnFilters() throws IOException {
        long seed = TestSeeds.seed("ClusterFiltersTest.pile");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 64);
        TableFilters a = t.write(entries(rnd, "a", 40, 20), 3, List.of()).filters();
        TableFilters b = t.write(entries(rnd, "b", 2000, 60), 4, List.of(a)).filters();
        TableFilters c = t.write(entries(rnd, "c", 500, 40), 5, List.of(b, a)).filters();
        HTableReader newest = t.open(5);
        assertEquals(1, a.filters().length, "the smallest table has one bucket, seed=" + seed);
        assertEquals(b.filters().length, newest.clusterColumns(), "columns follow the largest table");

        Map<Long, TableFilters> clustered = ClusterFilters.read(newest);
        assertEquals(Set.of(3L, 4L, 5L), clustered.keySet());
        for (TableFilters own : List.of(a, b, c)) {
            TableFilters got = clustered.get(own.number());
            assertEquals(own.number(), got.number());
            assertEquals(own.filters().length, got.filters().length, "buckets of table " + own.number());
            for (int i = 0; i < own.filters().length; i++) {
                assertArrayEquals(own.filters()[i], got.filters()[i], "table " + own.number() + " bucket " + i);
            }
        }

        List<Entry> d = entries(rnd, "d", 800, 30);
        t.write(d, 6, List.of(c, b, a));
        byte[] fromOwn = t.bytes;
        t.write(d, 6, List.of(clustered.get(5L), clustered.get(4L), clustered.get(3L)));
        assertArrayEquals(fromOwn, t.bytes, "seed=" + seed);
    }

    @Test
    void collapseHalvesWhileNeighboursAreEqual() {
        byte[] x = {1};
        byte[] y = {2};
        byte[][] four = {x, x.clone(), y, y.clone()};
        byte[][] two = ClusterFilters.collapse(four);
        assertEquals(2, two.length);
        assertSame(four[0], two[0]);
        assertSame(four[2], two[1]);
        byte[][] mixed = {x, y, x, x};
        assertSame(mixed, ClusterFilters.collapse(mixed), "an unequal pair keeps every bucket");
        assertEquals(1, ClusterFilters.collapse(new byte[][] {x, x, x, x}).length);
        byte[][] odd = {x, x, x};
        assertSame(odd, ClusterFilters.collapse(odd), "an odd count does not nest in half as many");
    }

    private static List<Entry> entries(Random rnd, String prefix, int count, int valueLength) {
        List<Entry> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            byte[] v = new byte[valueLength];
            rnd.nextBytes(v);
            out.add(new Entry((prefix + String.format("%06d", rnd.nextInt(1_000_000))).getBytes(), 1 + k,
                    InternalKeys.KIND_PUT, v, 0));
        }
        out.sort(Entry.ORDER);
        return dedupe(out);
    }

    private static List<Entry> dedupe(List<Entry> sorted) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : sorted) {
            if (out.isEmpty() || !Arrays.equals(out.get(out.size() - 1).key(), e.key())) {
                out.add(e);
            }
        }
        return out;
    }
}
