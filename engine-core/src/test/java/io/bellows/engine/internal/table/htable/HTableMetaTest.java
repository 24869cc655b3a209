package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.BlockCache;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An HTable opened from what its writer kept ({@link HTableProperties#meta}) reads nothing to open and
 * is the reader its file opens into: same shape (buckets, migrated buckets, overflow items), same
 * answers, same iteration.
 */
class HTableMetaTest {
    /** Counts the reads that reach the file. */
    private static final class Counting extends HTableFixture.MemReadable {
        int reads;

        Counting(byte[] data) {
            super(data);
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            reads++;
            super.read(position, dst, off, len);
        }
    }

    @Test
    void aReaderFromItsWriterMatchesTheOpenedOneAndReadsNothingToOpen() throws IOException {
        check(97, 5000, 0);
    }

    /** An overflow area over {@link HTableWriter#KEPT_OVERFLOW_BYTES} is not kept: one read opens the table. */
    @Test
    void aLargeOverflowAreaIsReadBack() throws IOException {
        check(20, 20_000, 1);
    }

    /** Every {@code bigEvery}th value is over a bucket's payload by up to {@code extra} bytes. */
    private static void check(int bigEvery, int extra, int readsToOpen) throws IOException {
        long seed = TestSeeds.seed("HTableMetaTest");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 16);
        List<Entry> entries = new ArrayList<>();
        // Keys crowding bucket 0 make it migrate items; values over a bucket's payload go to the overflow area.
        List<byte[]> crowd = t.keysHomedAt(0, 150, 16, rnd);
        for (int k = 0; k < 800; k++) {
            byte[] key = k < crowd.size() ? crowd.get(k) : String.format("key%06d", k).getBytes();
            int size = k % bigEvery == 0 ? HTableFormat.MAX_BUCKET_ITEM + 1 + rnd.nextInt(extra) : 1 + rnd.nextInt(100);
            byte[] value = new byte[size];
            rnd.nextBytes(value);
            entries.add(new Entry(key, 1000 + k, InternalKeys.KIND_PUT, value, 0));
        }
        entries.sort((a, b) -> InternalKeys.compare(a.key(), a.seq(), b.key(), b.seq()));
        HTableProperties p = t.write(entries, 7, List.of());

        Counting fromWriterFile = new Counting(t.bytes);
        HTableReader fromWriter = HTableReader.open(p.meta(), fromWriterFile, HTableFixture.PATH, 7, t.filterCache,
                new BlockCache(0), new EngineCounters());
        assertEquals(readsToOpen, fromWriterFile.reads, "reads to open from the writer's metadata, seed=" + seed);
        HTableReader opened = t.open(7);
        assertTrue(opened.overflowItems() > 0, "the table has overflow items, seed=" + seed);
        assertTrue(opened.hotMetadataBuckets() > 0, "the table has migrated buckets, seed=" + seed);
        assertEquals(opened.overflowItems(), fromWriter.overflowItems());
        assertEquals(opened.hotMetadataBuckets(), fromWriter.hotMetadataBuckets());
        assertEquals(opened.buckets(), fromWriter.buckets());
        assertEquals(opened.clusterColumns(), fromWriter.clusterColumns());
        assertEquals(opened.entries(), fromWriter.entries());
        assertEquals(opened.dataBytes(), fromWriter.dataBytes());

        Lookup a = new Lookup();
        Lookup b = new Lookup();
        for (Entry e : entries) {
            assertTrue(fromWriter.get(e.key(), Long.MAX_VALUE >>> 8, a), "seed=" + seed);
            assertTrue(opened.get(e.key(), Long.MAX_VALUE >>> 8, b));
            assertEquals(b.sequence, a.sequence);
            assertArrayEquals(e.value(), a.copyValue(), "seed=" + seed);
        }
        try (InternalIterator x = fromWriter.iterator(); InternalIterator y = opened.iterator()) {
            x.seekToFirst();
            y.seekToFirst();
            int n = 0;
            for (; y.isValid(); x.next(), y.next(), n++) {
                assertTrue(x.isValid());
                assertArrayEquals(y.key(), x.key());
                assertEquals(y.sequence(), x.sequence());
                assertArrayEquals(y.value(), x.value());
            }
            assertEquals(entries.size(), n);
        }
        fromWriter.close();
        opened.close();
    }
}
