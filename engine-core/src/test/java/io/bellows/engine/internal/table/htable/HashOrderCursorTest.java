package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Bytes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A table read in hash order yields every entry once, in the order a k-way merge of tables needs, as
 * copies and as views alike.
 */
class HashOrderCursorTest {
    private static final int PUT = InternalKeys.KIND_PUT;
    private static final int DEL = InternalKeys.KIND_DELETE;

    @Test
    void everyEntryComesOnceInHashOrder() throws IOException {
        long seed = TestSeeds.seed("HashOrderCursorTest.order");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 64);
        List<Entry> entries = new ArrayList<>();
        // Keys homed at a few buckets overload them (migration chains); large values go to the overflow area.
        List<byte[]> keys = new ArrayList<>(t.keysHomedAt(3, 120, 16, rnd));
        keys.addAll(t.keysHomedAt(40, 60, 16, rnd));
        for (int k = 0; k < 900; k++) {
            byte[] key = new byte[1 + rnd.nextInt(24)];
            rnd.nextBytes(key);
            keys.add(key);
        }
        keys.sort(Bytes::compare);
        byte[] prev = null;
        for (byte[] key : keys) {
            if (prev != null && Bytes.compare(prev, key) == 0) {
                continue;
            }
            prev = key;
            int versions = 1 + rnd.nextInt(3);
            for (int v = 0; v < versions; v++) {
                boolean tomb = rnd.nextInt(6) == 0;
                int len = rnd.nextInt(50) == 0 ? HTableFormat.MAX_BUCKET_ITEM + 10 : rnd.nextInt(120);
                byte[] value = tomb ? null : new byte[len];
                if (value != null) {
                    rnd.nextBytes(value);
                }
                entries.add(new Entry(key, 1000 - v, tomb ? DEL : PUT, value, 0));
            }
        }
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        assertTrue(r.overflowItems() > 0, "some items overflow, seed=" + seed);

        KeyHash h = t.hash;
        List<Entry> expected = new ArrayList<>(entries);
        expected.sort(Comparator.comparing((Entry e) -> e.key(), (a, b) -> {
            int c = HashOrderCursor.compareHash(h.hi(a), h.hi(b));
            return c != 0 ? c : Bytes.compare(a, b);
        }).thenComparing(Comparator.comparingLong(Entry::seq).reversed()));
        HashOrderCursor c = r.hashOrderCursor(null);
        int i = 0;
        while (c.next()) {
            Entry e = expected.get(i++);
            assertArrayEquals(e.key(), c.key(), "entry " + i + ", seed=" + seed);
            assertEquals(e.seq(), c.sequence());
            assertEquals(e.kind(), c.kind());
            assertArrayEquals(e.value(), c.value());
            assertArrayEquals(e.key(), c.keySlice().copy(), "entry " + i + ", seed=" + seed);
            assertArrayEquals(e.value() == null ? Bytes.EMPTY : e.value(), c.valueSlice().copy());
            assertEquals(h.hi(e.key()), c.hi());
            assertEquals(h.lo(e.key()), c.lo());
        }
        assertEquals(expected.size(), i, "seed=" + seed);
    }
}
