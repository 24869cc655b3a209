package io.bellows.engine.internal.memstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The galloping merge of an in-memory MERGE against sorting all cells: the same order, and figures
 * (unique keys above all, which ADAPTIVE decides by) equal to counting the merged array afresh.
 */
class CellRunTest {
    private static byte[] key(int i) {
        return String.format("k%05d", i).getBytes();
    }

    /**
     * Keys of several lengths where some are prefixes of others and some differ only past eight bytes
     * or in a trailing 0x00 or 0xff, so that the merge's prefix comparisons tie and pad.
     */
    private static byte[] mixedKey(int i) {
        byte[] base = key(i / 4);
        switch (i % 4) {
            case 0:
                return base;
            case 1:
                return Arrays.copyOf(base, base.length + 1);
            case 2:
                byte[] k = Arrays.copyOf(base, base.length + 9);
                Arrays.fill(k, base.length, k.length, (byte) 0xff);
                return k;
            default:
                return Arrays.copyOf(base, 1 + (i / 4) % base.length);
        }
    }

    /** Segments of very different sizes over one key space, so keys recur across and within them. */
    @Test
    void mergeMatchesSortAndRecount() {
        long seed = TestSeeds.seed("CellRunTest.mergeMatchesSortAndRecount");
        Random rnd = new Random(seed);
        long seq = 1;
        for (int round = 0; round < 200; round++) {
            int keySpace = 1 + rnd.nextInt(round % 3 == 0 ? 5 : 3000);
            int segments = 1 + rnd.nextInt(6);
            List<Segment> inputs = new ArrayList<>();
            List<Cell> all = new ArrayList<>();
            for (int s = 0; s < segments; s++) {
                int size = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextBoolean() ? 40 : 4000);
                SkipListSegment skip = new SkipListSegment(null);
                for (int i = 0; i < size; i++) {
                    boolean delete = rnd.nextInt(6) == 0;
                    seq += 1 + rnd.nextInt(2);
                    skip.add(mixedKey(rnd.nextInt(keySpace)), seq, delete ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT,
                            delete ? null : ("v" + seq).getBytes());
                }
                skip.cells().forEachRemaining(all::add);
                // Flat inputs carry their figures into the merge; skiplist ones are counted on the way.
                inputs.add(rnd.nextBoolean() ? SegmentBuilder.flatten(skip) : skip);
            }
            Cell[] expected = all.toArray(new Cell[0]);
            Arrays.sort(expected, Cell.ORDER);
            CellRun counted = CellRun.of(expected);

            FlatSegment merged = SegmentBuilder.merge(inputs);
            CellRun run = merged.run();
            String where = "seed " + seed + " round " + round;
            assertArrayEquals(expected, run.cells, where);
            assertEquals(counted.uniqueKeys, merged.uniqueKeys(), where);
            assertEquals(counted.dataSize, merged.dataSize(), where);
            assertEquals(new FlatSegment(expected, List.of()).heapSize(), merged.heapSize(), where);
            assertEquals(counted.tombstones, merged.deletions(), where);
            assertEquals(counted.minSequence, merged.minSequence(), where);
            assertEquals(counted.maxSequence, merged.maxSequence(), where);
            assertEquals(expected.length, merged.entries(), where);
        }
    }

    @Test
    void gallopFindsTheFirstCellAfter() {
        Cell[] a = new Cell[100];
        long[] prefixes = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = Cell.of(key(2 * i), 1000 + i, InternalKeys.KIND_PUT, new byte[0]);
            prefixes[i] = CellRun.prefixAt(a[i], 0);
        }
        for (int from = 0; from <= a.length; from += 7) {
            for (int k = -1; k <= 2 * a.length + 1; k++) {
                Cell probe = Cell.of(key(Math.max(k, 0)), k < 0 ? 5000 : 1, InternalKeys.KIND_PUT, new byte[0]);
                int expected = from;
                while (expected < a.length && Cell.compare(a[expected], probe) < 0) {
                    expected++;
                }
                assertEquals(expected, CellRun.gallop(a, prefixes, from, probe, CellRun.prefixAt(probe, 0)), "from " + from + " key " + k);
            }
        }
    }
}
