package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
 * Tables sharing many keys merge into one stream in hash order, each key's versions newest first across
 * the tables, and inputs of very different lengths run out one by one.
 */
class HashOrderMergeTest {
    @Test
    void tablesSharingKeysMergeInHashOrderNewestFirst() throws IOException {
        long seed = TestSeeds.seed("HashOrderMergeTest.merge");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 32);
        List<byte[]> pool = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            byte[] key = new byte[1 + rnd.nextInt(20)];
            rnd.nextBytes(key);
            pool.add(key);
        }
        byte[] everywhere = {42};
        List<Entry> all = new ArrayList<>();
        List<HashOrderCursor> cursors = new ArrayList<>();
        int[] sizes = {300, 1, 40, 300, 7};
        for (int table = 0; table < sizes.length; table++) {
            List<Entry> entries = new ArrayList<>();
            // Newer tables hold higher sequences, as a pile's do.
            long seq = 10_000L * (table + 1);
            entries.add(new Entry(everywhere, seq++, InternalKeys.KIND_PUT, new byte[] {(byte) table}, 0));
            for (int i = 1; i < sizes[table]; i++) {
                byte[] key = pool.get(rnd.nextInt(pool.size()));
                boolean tomb = rnd.nextInt(5) == 0;
                entries.add(new Entry(key, seq++, tomb ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT,
                        tomb ? null : new byte[] {(byte) table, (byte) i}, 0));
            }
            entries.sort(Comparator.comparing(Entry::key, Bytes::compare)
                    .thenComparing(Comparator.comparingLong(Entry::seq).reversed()));
            t.write(entries, table + 1, List.of());
            cursors.add(t.open(table + 1).hashOrderCursor(null));
            all.addAll(entries);
        }
        KeyHash h = t.hash;
        all.sort(Comparator.comparing(Entry::key, (a, b) -> {
            int c = HashOrderCursor.compareHash(h.hi(a), h.hi(b));
            return c != 0 ? c : Bytes.compare(a, b);
        }).thenComparing(Comparator.comparingLong(Entry::seq).reversed()));

        HashOrderMerge merge = new HashOrderMerge(cursors);
        int i = 0;
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            Entry e = all.get(i++);
            assertArrayEquals(e.key(), top.key(), "entry " + i + ", seed=" + seed);
            assertEquals(e.seq(), top.sequence(), "entry " + i + ", seed=" + seed);
            assertEquals(e.kind(), top.kind());
            assertArrayEquals(e.value(), top.value());
            assertEquals(HashOrderCursor.sortKey(h.hi(e.key())), top.sortKey());
        }
        assertEquals(all.size(), i, "seed=" + seed);
        assertNull(merge.top());
    }
}
