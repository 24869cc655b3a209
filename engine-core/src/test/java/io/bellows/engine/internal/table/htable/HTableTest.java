package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.BlockCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HTableTest {
    private static final int PUT = InternalKeys.KIND_PUT;
    private static final int DEL = InternalKeys.KIND_DELETE;

    @Test
    void everyVersionIsFoundAtItsSequence() throws IOException {
        long seed = TestSeeds.seed("HTableTest.versions");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 64);
        List<Entry> entries = new ArrayList<>();
        for (int k = 0; k < 1500; k++) {
            byte[] key = String.format("key%06d", k).getBytes();
            int versions = 1 + rnd.nextInt(3);
            long top = 10_000 + k * 10L;
            for (int v = 0; v < versions; v++) {
                boolean tomb = rnd.nextInt(5) == 0;
                byte[] value = tomb ? null : randomValue(rnd, 1 + rnd.nextInt(100));
                entries.add(new Entry(key, top - v, tomb ? DEL : PUT, value, 0));
            }
        }
        HTableProperties p = t.write(entries, 7, List.of());
        assertEquals(entries.size(), p.entries());
        HTableReader r = t.open(7);
        Lookup lk = new Lookup();
        for (Entry e : entries) {
            assertTrue(r.get(e.key(), e.seq(), lk), "seed=" + seed);
            assertEquals(e.seq(), lk.sequence, "seed=" + seed);
            assertEquals(e.kind(), lk.kind);
            assertArrayEquals(e.value(), lk.copyValue());
            assertTrue(r.get(e.key(), e.seq() + 5, lk));
            assertTrue(lk.sequence >= e.seq());
        }
        assertFalse(r.get("key000000".getBytes(), 9_000, lk), "below the oldest version");
        for (int i = 0; i < 1000; i++) {
            assertFalse(r.get(("absent" + i).getBytes(), Long.MAX_VALUE >>> 8, lk));
        }
        try (InternalIterator it = r.iterator()) {
            int i = 0;
            for (it.seekToFirst(); it.isValid(); it.next(), i++) {
                Entry e = entries.get(i);
                assertArrayEquals(e.key(), it.key());
                assertEquals(e.seq(), it.sequence());
                assertArrayEquals(e.value(), it.value());
            }
            assertEquals(entries.size(), i);
            i = entries.size() - 1;
            for (it.seekToLast(); it.isValid(); it.prev(), i--) {
                assertEquals(entries.get(i).seq(), it.sequence(), "backward, seed=" + seed);
                assertArrayEquals(entries.get(i).key(), it.key());
            }
            assertEquals(-1, i, "prev from the first entry");
            for (int probe = 0; probe < 200; probe++) {
                int at = rnd.nextInt(entries.size());
                Entry e = entries.get(at);
                // Just above the entry's sequence: the floor is the entry before it, unless that is the same key.
                it.seekForPrev(e.key(), e.seq() + 1);
                int expect = at - 1;
                while (expect >= 0 && InternalKeys.compare(entries.get(expect).key(), entries.get(expect).seq(), e.key(),
                        e.seq() + 1) > 0) {
                    expect--;
                }
                if (expect < 0) {
                    assertFalse(it.isValid(), "seed=" + seed);
                } else {
                    assertEquals(entries.get(expect).seq(), it.sequence(), "seekForPrev, seed=" + seed);
                    it.next();
                    assertEquals(e.seq(), it.sequence(), "next after seekForPrev, seed=" + seed);
                }
                it.seekForPrev(e.key(), e.seq());
                assertEquals(e.seq(), it.sequence(), "seekForPrev at the entry, seed=" + seed);
            }
        }
    }

    /**
     * All items hashed to bucket 0 of 4: bucket 0 sheds into the emptiest bucket, which then holds
     * twice a bucket's payload and sheds in turn, forming a chain. Every key stays reachable.
     */
    @Test
    void overloadedBucketMigratesAlongAChain() throws IOException {
        long seed = TestSeeds.seed("HTableTest.chain");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 4);
        List<byte[]> keys = t.keysHomedAt(0, 3 * HTableFormat.PAYLOAD / 100, 16, rnd);
        keys.sort(io.bellows.engine.internal.util.Bytes.COMPARATOR);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            entries.add(new Entry(keys.get(i), 100 + i, PUT, randomValue(rnd, 80), 0));
        }
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        int migrations = 0;
        int emptyBuckets = 0;
        for (int b = 0; b < 4; b++) {
            List<Entry> stored = r.bucketItems(b);
            int bytes = 0;
            for (Entry e : stored) {
                bytes += e.size();
            }
            assertTrue(bytes <= HTableFormat.PAYLOAD, "bucket " + b + " holds " + bytes);
            emptyBuckets += stored.isEmpty() ? 1 : 0;
            int dest = io.bellows.engine.internal.util.Coding.getShort(t.bytes,
                    (int) HTableFormat.bucketOffset(b) + HTableFormat.DEST_OFFSET);
            migrations += dest == HTableFormat.NO_DEST ? 0 : 1;
        }
        assertEquals(0, emptyBuckets, "three buckets' worth of items spread over all four");
        assertTrue(migrations >= 2, "a chain needs at least two migrations, got " + migrations);
        assertEquals(1, r.hotMetadataBuckets(), "20% of 4 buckets keep their metadata in memory");
        Lookup lk = new Lookup();
        for (Entry e : entries) {
            assertTrue(r.get(e.key(), Long.MAX_VALUE >>> 8, lk), "seed=" + seed);
            assertArrayEquals(e.value(), lk.copyValue());
        }
        assertTrue(t.counters.blockReads.sum() <= 3L * entries.size(), "at most a chain of three bucket reads");
    }

    @Test
    void balancerLeavesNoBucketOverloaded() {
        PackedItems items = new PackedItems();
        BucketBalancer b = new BucketBalancer(items, 0, 8);
        Random rnd = new Random(1);
        for (int i = 0; i < 200; i++) {
            int home = i % 3 == 0 ? 5 : rnd.nextInt(8);
            byte[] key = ("k" + i).getBytes();
            byte[] value = new byte[100 + rnd.nextInt(40)];
            int item = items.add(key, 0, key.length, value, 0, value.length, i, PUT, 0, rnd.nextLong());
            items.setHome(item, home);
            b.add(item);
        }
        b.balance();
        long total = 0;
        for (int i = 0; i < 8; i++) {
            assertTrue(b.load[i] <= HTableFormat.PAYLOAD);
            total += b.load[i];
        }
        assertTrue(b.dest[5] != HTableFormat.NO_DEST, "the hot bucket migrated");
        assertTrue(total > 0);
        assertTrue(b.overflow.isEmpty(), "room was left, so nothing overflowed");
    }

    /** Values too big for a bucket live in the overflow area; versions may straddle it and a bucket. */
    @Test
    void oversizedValuesGoToTheOverflowArea() throws IOException {
        long seed = TestSeeds.seed("HTableTest.oversized");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 16);
        List<Entry> entries = new ArrayList<>();
        byte[] big1 = randomValue(rnd, 50_000);
        byte[] big2 = randomValue(rnd, HTableFormat.MAX_BUCKET_ITEM + 1);
        byte[] small = randomValue(rnd, 10);
        entries.add(new Entry("a".getBytes(), 30, PUT, small, 0));
        entries.add(new Entry("a".getBytes(), 20, PUT, big1, 0));
        entries.add(new Entry("a".getBytes(), 10, DEL, null, 0));
        entries.add(new Entry("b".getBytes(), 40, PUT, big2, 0));
        entries.add(new Entry("b".getBytes(), 5, PUT, small, 0));
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        assertEquals(2, r.overflowItems());
        Lookup lk = new Lookup();
        assertTrue(r.get("a".getBytes(), 100, lk));
        assertArrayEquals(small, lk.copyValue());
        assertTrue(r.get("a".getBytes(), 25, lk));
        assertArrayEquals(big1, lk.copyValue());
        assertTrue(r.get("a".getBytes(), 15, lk));
        assertEquals(DEL, lk.kind);
        assertNull(lk.copyValue());
        assertFalse(r.get("a".getBytes(), 9, lk));
        assertTrue(r.get("b".getBytes(), 100, lk));
        assertArrayEquals(big2, lk.copyValue());
        assertTrue(r.get("b".getBytes(), 39, lk));
        assertArrayEquals(small, lk.copyValue());
        try (InternalIterator it = r.iterator()) {
            it.seekToFirst();
            for (Entry e : entries) {
                assertTrue(it.isValid());
                assertEquals(e.seq(), it.sequence());
                assertArrayEquals(e.value(), it.value());
                it.next();
            }
            assertFalse(it.isValid());
        }
    }

    /** The per-bucket filters at 16 bits per key, measured through the BloomCluster of a table. */
    @Test
    void bloomFalsePositiveRateIsWithinBounds() throws IOException {
        long seed = TestSeeds.seed("HTableTest.bloom");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 256);
        List<Entry> entries = new ArrayList<>();
        for (int k = 0; k < 9000; k++) {
            entries.add(new Entry(String.format("present%08d", k).getBytes(), 1, PUT, randomValue(rnd, 80), 0));
        }
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        for (Entry e : entries) {
            long hi = t.hash.hi(e.key());
            assertTrue(r.clusterBox(KeyHash.bucket(hi, r.clusterColumns()), true).mayContain(7, KeyHash.bloom(t.hash.lo(e.key()))),
                    "no false negatives");
        }
        int probes = 200_000;
        int positives = 0;
        for (int i = 0; i < probes; i++) {
            byte[] key = String.format("absent%08d", i).getBytes();
            long hi = t.hash.hi(key);
            if (r.clusterBox(KeyHash.bucket(hi, r.clusterColumns()), true).mayContain(7, KeyHash.bloom(t.hash.lo(key)))) {
                positives++;
            }
        }
        double rate = (double) positives / probes;
        System.out.println("HTable bloom false-positive rate at 16 bits/key: " + rate);
        // Theory for 16 bits and 11 probes: 0.05%; the bound leaves room for small filters' variance.
        assertTrue(rate < 0.002, "false-positive rate " + rate);
    }

    /** A newer table's BloomCluster answers for the older table of its pile. */
    @Test
    void clusterCoversOlderTablesOfThePile() throws IOException {
        HTableFixture t = new HTableFixture(42, 32);
        List<Entry> old = new ArrayList<>();
        List<Entry> young = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            old.add(new Entry(String.format("old%05d", k).getBytes(), 1, PUT, new byte[20], 0));
            young.add(new Entry(String.format("young%05d", k).getBytes(), 2, PUT, new byte[20], 0));
        }
        HTableProperties first = t.write(old, 3, List.of());
        t.write(young, 4, List.of(first.filters()));
        HTableReader r = t.open(4);
        int reads = (int) t.counters.filterBlockReads.sum();
        for (Entry e : old) {
            long hi = t.hash.hi(e.key());
            ClusterBox box = r.clusterBox(KeyHash.bucket(hi, r.clusterColumns()), true);
            assertTrue(box.covers(3) && box.covers(4));
            assertTrue(box.mayContain(3, KeyHash.bloom(t.hash.lo(e.key()))));
        }
        assertTrue(t.counters.filterBlockReads.sum() - reads <= 32, "cluster runs are cached");
    }

    /**
     * Tables are sized by their data, and a cluster spans tables of different sizes: a big table over a
     * small one and a small one over a big one both answer for every key of the older table.
     */
    @Test
    void clusterCoversOlderTablesOfOtherSizes() throws IOException {
        HTableFixture t = new HTableFixture(43, 64);
        List<Entry> small = new ArrayList<>();
        List<Entry> big = new ArrayList<>();
        for (int k = 0; k < 60; k++) {
            small.add(new Entry(String.format("small%05d", k).getBytes(), 1, PUT, new byte[20], 0));
        }
        for (int k = 0; k < 2000; k++) {
            big.add(new Entry(String.format("big%05d", k).getBytes(), 2, PUT, new byte[60], 0));
        }
        HTableProperties s1 = t.write(small, 3, List.of());
        assertEquals(1, t.open(3).buckets(), "60 small items fit one bucket");
        t.write(big, 4, List.of(s1.filters()));
        HTableReader bigOverSmall = t.open(4);
        assertEquals(HTableFormat.bucketsFor(64, bigOverSmall.dataBytes()), bigOverSmall.buckets());
        assertEquals(bigOverSmall.buckets(), bigOverSmall.clusterColumns());
        assertAllCovered(t, bigOverSmall, small, 3);
        assertAllCovered(t, bigOverSmall, big, 4);

        HTableProperties b2 = t.write(big, 5, List.of());
        int bigBuckets = t.open(5).buckets();
        t.write(small, 6, List.of(b2.filters()));
        HTableReader smallOverBig = t.open(6);
        assertEquals(1, smallOverBig.buckets());
        assertEquals(bigBuckets, smallOverBig.clusterColumns(), "columns follow the largest table");
        assertAllCovered(t, smallOverBig, big, 5);
        assertAllCovered(t, smallOverBig, small, 6);
    }

    private static void assertAllCovered(HTableFixture t, HTableReader r, List<Entry> entries, long number)
            throws IOException {
        for (Entry e : entries) {
            long hi = t.hash.hi(e.key());
            ClusterBox box = r.clusterBox(KeyHash.bucket(hi, r.clusterColumns()), true);
            assertTrue(box.mayContain(number, KeyHash.bloom(t.hash.lo(e.key()))), "no false negative for table " + number);
        }
    }

    /** Buckets a lookup reads go through the engine's block cache: a second lookup reads nothing. */
    @Test
    void bucketsAreCachedInTheBlockCache() throws IOException {
        HTableFixture t = new HTableFixture(44, 16);
        List<Entry> entries = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            entries.add(new Entry(String.format("k%05d", k).getBytes(), 1, PUT, new byte[30], 0));
        }
        t.write(entries, 7, List.of());
        HTableReader r = HTableReader.open(new HTableFixture.MemReadable(t.bytes), HTableFixture.PATH, 7, t.filterCache,
                new BlockCache(1 << 20), t.counters);
        Lookup lk = new Lookup();
        for (Entry e : entries) {
            assertTrue(r.get(e.key(), 5, false, lk));
        }
        long uncached = t.counters.blockReads.sum();
        assertTrue(uncached >= entries.size(), "fillCache false: every lookup reads its bucket");
        for (Entry e : entries) {
            assertTrue(r.get(e.key(), 5, true, lk));
        }
        long filled = t.counters.blockReads.sum() - uncached;
        assertTrue(filled <= 2L * r.buckets(), "each bucket (or its destination) read once, got " + filled);
        for (Entry e : entries) {
            assertTrue(r.get(e.key(), 5, true, lk));
            assertArrayEquals(e.value(), lk.copyValue());
        }
        assertEquals(uncached + filled, t.counters.blockReads.sum(), "the third pass hits the cache only");
        assertTrue(t.counters.blockCacheHits.sum() >= entries.size());
    }

    @Test
    void damagedBucketIsReportedWithItsOffset() throws IOException {
        HTableFixture t = new HTableFixture(5, 4);
        List<Entry> entries = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            entries.add(new Entry(String.format("k%03d", k).getBytes(), 1, PUT, new byte[10], 0));
        }
        t.write(entries, 7, List.of());
        int buckets = t.open(7).buckets();
        for (int b = 0; b < buckets; b++) {
            t.bytes[(int) HTableFormat.bucketOffset(b) + 5] ^= 0x40;
        }
        HTableReader r = t.open(7);
        CorruptionException e = assertThrows(CorruptionException.class, () -> r.get("k001".getBytes(), 5, new Lookup()));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    private static byte[] randomValue(Random rnd, int n) {
        byte[] v = new byte[n];
        rnd.nextBytes(v);
        return v;
    }
}
