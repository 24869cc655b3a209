package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Tables of more than one balancing window (format version 3): items migrate only within their window,
 * a cursor reads them a window at a time (ahead or not, a failed read ahead read again), and a table
 * streamed window by window is byte for byte the table written from everything collected.
 */
class HTableWindowTest {
    private static final int PUT = InternalKeys.KIND_PUT;
    private static final int DEL = InternalKeys.KIND_DELETE;
    private static final int BUCKETS = 1024;

    /** About 90% of a 1024-bucket table, with buckets at window edges overloaded and some large values. */
    private static List<Entry> entries(HTableFixture t, Random rnd) {
        List<byte[]> keys = new ArrayList<>();
        for (int edge : new int[] {0, 255, 256, 511, 1023}) {
            keys.addAll(t.keysHomedAt(edge, 90, 16, rnd));
        }
        while (keys.size() < 27_000) {
            byte[] key = new byte[16];
            rnd.nextBytes(key);
            keys.add(key);
        }
        keys.sort(Bytes::compare);
        List<Entry> out = new ArrayList<>();
        byte[] prev = null;
        for (byte[] key : keys) {
            if (prev != null && Bytes.compare(prev, key) == 0) {
                continue;
            }
            prev = key;
            int versions = rnd.nextInt(8) == 0 ? 2 : 1;
            for (int v = 0; v < versions; v++) {
                boolean tomb = rnd.nextInt(10) == 0;
                int len = rnd.nextInt(400) == 0 ? HTableFormat.MAX_BUCKET_ITEM + 10 : 60 + rnd.nextInt(80);
                byte[] value = tomb ? null : new byte[len];
                if (value != null) {
                    rnd.nextBytes(value);
                }
                out.add(new Entry(key, 1000 - v, tomb ? DEL : PUT, value, 0));
            }
        }
        return out;
    }

    private static List<Entry> inHashOrder(List<Entry> entries, KeyHash h) {
        List<Entry> out = new ArrayList<>(entries);
        out.sort(Comparator.comparing((Entry e) -> e.key(), (a, b) -> {
            int c = HashOrderCursor.compareHash(h.hi(a), h.hi(b));
            return c != 0 ? c : Bytes.compare(a, b);
        }).thenComparing(Comparator.comparingLong(Entry::seq).reversed()));
        return out;
    }

    private static void assertAnswers(HTableReader r, List<Entry> entries, long seed) throws IOException {
        Lookup lk = new Lookup();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (i > 0 && Bytes.compare(entries.get(i - 1).key(), e.key()) == 0) {
                continue;
            }
            assertTrue(r.get(e.key(), Long.MAX_VALUE >>> 8, lk), "seed=" + seed);
            assertEquals(e.kind(), lk.kind, "seed=" + seed);
            if (e.kind() == PUT) {
                assertArrayEquals(e.value(), lk.copyValue(), "seed=" + seed);
            }
        }
    }

    private static void assertHashOrder(HashOrderCursor c, List<Entry> expected, long seed) throws IOException {
        int i = 0;
        while (c.next()) {
            Entry e = expected.get(i++);
            assertArrayEquals(e.key(), c.keySlice().copy(), "entry " + i + ", seed=" + seed);
            assertEquals(e.seq(), c.sequence());
            assertArrayEquals(e.value() == null ? Bytes.EMPTY : e.value(), c.valueSlice().copy());
        }
        assertEquals(expected.size(), i, "seed=" + seed);
        c.close();
    }

    @Test
    void itemsMigrateOnlyWithinTheirWindow() throws IOException {
        long seed = TestSeeds.seed("HTableWindowTest.migrate");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        List<Entry> entries = entries(t, new Random(seed));
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        assertEquals(BUCKETS, r.buckets(), "seed=" + seed);
        assertEquals(HTableFormat.WINDOW_BUCKETS, r.window());
        byte[] area = new byte[BUCKETS * HTableFormat.BUCKET_SIZE];
        r.readBuckets(0, BUCKETS, area);
        int migrated = 0;
        for (int b = 0; b < BUCKETS; b++) {
            int dest = Coding.getShort(area, b * HTableFormat.BUCKET_SIZE + HTableFormat.DEST_OFFSET);
            if (dest != HTableFormat.NO_DEST && dest != HTableFormat.OVERFLOW_DEST) {
                migrated++;
                assertEquals(b / 256, dest / 256, "bucket " + b + " moved items to " + dest + ", seed=" + seed);
            }
        }
        assertTrue(migrated > 20, migrated + " buckets migrated, seed=" + seed);
        assertAnswers(r, entries, seed);
    }

    @Test
    void aCursorReadsWindowByWindowAheadOrNot() throws Exception {
        long seed = TestSeeds.seed("HTableWindowTest.cursor");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        List<Entry> entries = entries(t, new Random(seed));
        t.write(entries, 7, List.of());
        HTableReader r = t.open(7);
        assertTrue(r.overflowItems() > 0, "seed=" + seed);
        List<Entry> expected = inHashOrder(entries, t.hash);
        assertHashOrder(r.hashOrderCursor(null), expected, seed);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            assertHashOrder(r.hashOrderCursor(pool), expected, seed);
            // Every read ahead fails; the cursor reads each window again itself.
            Thread owner = Thread.currentThread();
            AtomicInteger failed = new AtomicInteger();
            HTableReader flaky = HTableReader.open(new HTableFixture.MemReadable(t.bytes) {
                @Override
                public void read(long position, byte[] dst, int off, int len) throws IOException {
                    if (Thread.currentThread() != owner) {
                        failed.incrementAndGet();
                        throw new IOException("injected read-ahead failure");
                    }
                    super.read(position, dst, off, len);
                }
            }, HTableFixture.PATH, 7, t.filterCache, t.counters);
            assertHashOrder(flaky.hashOrderCursor(pool), expected, seed);
            assertEquals(BUCKETS / 256 - 1, failed.get(), "every window after the first was read ahead");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aStreamedTableIsTheTableWrittenFromEverythingCollected() throws IOException {
        long seed = TestSeeds.seed("HTableWindowTest.stream");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        List<Entry> entries = inHashOrder(entries(t, new Random(seed)), t.hash);
        long bytes = 0;
        for (Entry e : entries) {
            bytes += HTableFormat.itemSize(e.key().length, e.value() == null ? 0 : e.value().length, e.seq(),
                    e.kind() == DEL);
        }
        int n = HTableFormat.bucketsFor(BUCKETS, bytes);
        assertEquals(BUCKETS, n, "seed=" + seed);

        HTableWriter collected = new HTableWriter(t.hash, BUCKETS, 16);
        HTableWriter streamed = new HTableWriter(t.hash, BUCKETS, 16);
        HTableFixture.Mem a = new HTableFixture.Mem();
        HTableFixture.Mem b = new HTableFixture.Mem();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            long hi = t.hash.hi(e.key());
            long lo = t.hash.lo(e.key());
            collected.add(e.key(), e.seq(), e.kind(), e.value(), hi, lo);
            streamed.add(e.key(), e.seq(), e.kind(), e.value(), hi, lo);
            if (i == entries.size() / 16) {
                streamed.stream(b, n);
            }
        }
        assertTrue(streamed.isStreaming());
        HTableProperties pa = collected.write(a, 7, List.of());
        HTableProperties pb = streamed.write(b, 7, List.of());
        assertArrayEquals(a.out.toByteArray(), b.out.toByteArray(), "seed=" + seed);
        assertArrayEquals(pa.smallestKey(), pb.smallestKey());
        assertArrayEquals(pa.largestKey(), pb.largestKey());
        assertEquals(pa.entries(), pb.entries());
    }

    @Test
    void aTableStreamedShortOfItsDataOverflowsAndStillAnswers() throws IOException {
        long seed = TestSeeds.seed("HTableWindowTest.short");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        List<Entry> entries = inHashOrder(entries(t, new Random(seed)), t.hash);
        HTableWriter w = new HTableWriter(t.hash, BUCKETS, 16);
        HTableFixture.Mem file = new HTableFixture.Mem();
        w.stream(file, BUCKETS / 2);
        for (Entry e : entries) {
            w.add(e.key(), e.seq(), e.kind(), e.value(), t.hash.hi(e.key()), t.hash.lo(e.key()));
        }
        w.write(file, 7, List.of());
        t.bytes = file.out.toByteArray();
        HTableReader r = t.open(7);
        assertEquals(BUCKETS / 2, r.buckets());
        assertTrue(r.overflowItems() > entries.size() / 3, r.overflowItems() + " items overflow, seed=" + seed);
        entries.sort(Comparator.comparing(Entry::key, Bytes::compare)
                .thenComparing(Comparator.comparingLong(Entry::seq).reversed()));
        assertAnswers(r, entries, seed);
        assertHashOrder(r.hashOrderCursor(null), inHashOrder(entries, t.hash), seed);
    }

    @Test
    void anEntryOfAWindowAlreadyWrittenIsRefused() throws IOException {
        long seed = TestSeeds.seed("HTableWindowTest.order");
        HTableFixture t = new HTableFixture(seed, BUCKETS);
        Random rnd = new Random(seed);
        byte[] late = t.keysHomedAt(3, 1, 16, rnd).get(0);
        byte[] early = t.keysHomedAt(600, 1, 16, rnd).get(0);
        HTableWriter w = new HTableWriter(t.hash, BUCKETS, 16);
        w.stream(new HTableFixture.Mem(), BUCKETS);
        w.add(early, 1, PUT, new byte[8], t.hash.hi(early), t.hash.lo(early));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> w.add(late, 1, PUT, new byte[8], t.hash.hi(late), t.hash.lo(late)));
        assertTrue(e.getMessage().contains("bucket 3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HTableWriter(t.hash, BUCKETS, 16)
                .stream(new HTableFixture.Mem(), 3 * BUCKETS / 4));
    }
}
