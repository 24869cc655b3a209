package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A damaged HTable is refused or read exactly, never with a wrong value or a wrong filter, wherever
 * the damage is: header, buckets, overflow area, own filters, BloomClusters, metadata, footer.
 */
class HTableCorruptionTest {
    private static final int BUCKETS = 8;

    @Test
    void everySingleByteFlipIsDetectedOrHarmless() throws IOException {
        long seed = TestSeeds.seed("HTableCorruptionTest.flips");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        TreeMap<String, Entry> byKey = new TreeMap<>();
        for (int i = 0; i < 40; i++) {
            byte[] v = new byte[1 + rnd.nextInt(60)];
            rnd.nextBytes(v);
            String k = "k" + rnd.nextInt(1_000_000);
            byKey.put(k, new Entry(k.getBytes(), 100 + i, InternalKeys.KIND_PUT, v, 0));
        }
        byte[] big = new byte[HTableFormat.MAX_BUCKET_ITEM + 500];
        rnd.nextBytes(big);
        byKey.put("big", new Entry("big".getBytes(), 7, InternalKeys.KIND_PUT, big, 0));
        List<Entry> entries = new ArrayList<>(byKey.values());
        t.write(entries, 7, List.of());
        byte[] good = t.bytes.clone();
        TableFilters filters = t.open(7).filters();
        assertEquals(1, t.open(7).overflowItems(), "the big value is in the overflow area");

        int detected = 0;
        // Every byte: header, buckets (items, their checksums, the unused tail of each bucket), overflow
        // area, filters, padding, BloomClusters, metadata, footer.
        for (int at = 0; at < good.length; at++) {
            t.bytes = good.clone();
            t.bytes[at] ^= (byte) (1 << rnd.nextInt(8));
            try {
                readsExactly(t, entries, filters);
            } catch (CorruptionException e) {
                assertEquals(HTableFixture.PATH, e.file(), "seed=" + seed);
                detected++;
            } catch (AssertionError e) {
                throw new AssertionError("flip at offset " + at + " of " + good.length + " read wrong, seed=" + seed, e);
            }
        }
        assertTrue(detected > 0);
    }

    /**
     * A BloomCluster run whose checksum holds but whose boxes do not add up (a bug in the writer, not a
     * flipped bit) is refused when the run is indexed, never read as another column's filters.
     */
    @Test
    void aRunWithAWellSummedButWrongBoxIsCorrupt() throws IOException {
        long seed = TestSeeds.seed("HTableCorruptionTest.boxes");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            entries.add(new Entry(String.format("key%06d", i).getBytes(), 100 + i, InternalKeys.KIND_PUT, new byte[20], 0));
        }
        t.write(entries, 7, List.of());
        byte[] good = t.bytes.clone();
        HTableReader intact = t.open(7);
        assertEquals(BUCKETS, intact.clusterColumns(), "a table of " + BUCKETS + " columns (seed " + seed + ")");
        int run = Math.toIntExact(intact.clusterOffset());
        int crcAt = run + HTableFormat.BUCKET_SIZE - ClusterPacker.RUN_TRAILER;
        assertEquals(BUCKETS, Coding.getShort(good, run), "the columns' boxes share the first run");
        int firstBox = run + ClusterPacker.RUN_HEADER;

        // The first box claims more bytes than the run holds.
        damaged(t, good, crcAt, run, b -> {
            b[firstBox] = (byte) 0xff;
            b[firstBox + 1] = (byte) 0x7f;
        }, 0, "malformed BloomCluster run 0");
        // The first box is empty (a box holds at least its table count).
        damaged(t, good, crcAt, run, b -> b[firstBox] = 0, 0, "malformed BloomCluster run 0");
        // The first box's one table is another table (box: varint length, varint tables = 1, varint number 7).
        int number = Coding.skipVarint(good, firstBox, crcAt) + 1;
        assertEquals(1, good[number - 1], "the box lists one table");
        assertEquals(7, good[number], "the table itself");
        damaged(t, good, crcAt, run, b -> b[number] = 8, 0, "lacks table 7");
        // The run says it holds one box.
        damaged(t, good, crcAt, run, b -> Coding.putShort(b, run, 1), BUCKETS - 1, "lacks column " + (BUCKETS - 1));
    }

    /** Opens a copy of {@code good} damaged by {@code damage}, its run's CRC made right, and reads a box. */
    private static void damaged(HTableFixture t, byte[] good, int crcAt, int run, Consumer<byte[]> damage, int column,
            String message) throws IOException {
        t.bytes = good.clone();
        damage.accept(t.bytes);
        Coding.putInt(t.bytes, crcAt, Checksums.maskedCrc32c(t.bytes, run, crcAt - run));
        HTableReader r = t.open(7);
        CorruptionException e = assertThrows(CorruptionException.class, () -> r.clusterBox(column, false));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    /** Opens, gets, iterates and reads the filters of the table; fails on any answer that differs. */
    private static void readsExactly(HTableFixture t, List<Entry> entries, TableFilters filters) throws IOException {
        try (HTableReader r = t.open(7)) {
            Lookup out = new Lookup();
            for (Entry e : entries) {
                assertTrue(r.get(e.key(), Long.MAX_VALUE >>> 8, out), "lost " + new String(e.key()));
                assertEquals(e.seq(), out.sequence);
                assertArrayEquals(e.value(), out.copyValue());
            }
            try (InternalIterator it = r.iterator()) {
                it.seekToFirst();
                for (Entry e : entries) {
                    assertTrue(it.isValid());
                    assertArrayEquals(e.key(), it.key());
                    assertArrayEquals(e.value(), it.value());
                    it.next();
                }
                assertFalse(it.isValid());
            }
            TableFilters read = r.filters();
            assertEquals(filters.filters().length, read.filters().length, "bucket count");
            for (int b = 0; b < filters.filters().length; b++) {
                assertArrayEquals(filters.filters()[b], read.filters()[b], "filter of bucket " + b);
            }
            for (int b = 0; b < r.clusterColumns(); b++) {
                r.clusterBox(b, false);
            }
            TableFilters clustered = ClusterFilters.read(r).get(7L);
            int columns = r.clusterColumns();
            for (int c = 0; c < columns; c++) {
                assertArrayEquals(filters.filters()[c / (columns / filters.filters().length)],
                        clustered.filters()[c / (columns / clustered.filters().length)], "cluster column " + c);
            }
        }
    }
}
