package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.Entries.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TableTest {
    private static TableReader open(byte[] bytes, BlockCache cache, EngineCounters counters) throws IOException {
        return TableReader.open(new MemFiles.Readable(bytes), Entries.PATH, 42, cache, counters);
    }

    static void assertAt(InternalIterator it, Entry e) {
        assertTrue(it.isValid(), "expected " + e);
        assertArrayEquals(e.key(), it.key());
        assertEquals(e.seq(), it.sequence());
        assertEquals(e.kind(), it.kind());
        assertArrayEquals(e.value(), it.value());
    }

    static void assertGet(TableReader table, List<Entry> model, byte[] key, long seq) throws IOException {
        Lookup out = new Lookup();
        Entry expected = Entries.get(model, key, seq);
        boolean found = table.get(key, seq, true, out);
        if (expected == null) {
            assertFalse(found);
            return;
        }
        assertTrue(found, "expected " + expected);
        assertEquals(expected.seq(), out.sequence);
        assertEquals(expected.kind(), out.kind);
        if (expected.kind() == InternalKeys.KIND_PUT) {
            assertArrayEquals(expected.value(), out.copyValue());
        } else {
            assertNull(out.copyValue());
        }
    }

    /** Get and iterate against the model, at random and at every entry. */
    static void checkAgainstModel(TableReader table, List<Entry> model, Random rnd, int probes) throws IOException {
        for (Entry e : model) {
            assertGet(table, model, e.key(), e.seq());
        }
        for (int i = 0; i < probes; i++) {
            assertGet(table, model, Entries.probeKey(rnd, model), Entries.probeSeq(rnd, model));
        }
        try (InternalIterator it = table.iterator(rnd.nextBoolean())) {
            it.seekToFirst();
            for (Entry e : model) {
                assertAt(it, e);
                it.next();
            }
            assertFalse(it.isValid());
            for (int i = 0; i < probes; i++) {
                byte[] k = Entries.probeKey(rnd, model);
                long s = Entries.probeSeq(rnd, model);
                int at = Entries.ceiling(model, k, s);
                it.seek(k, s);
                for (int j = at; j < Math.min(model.size(), at + 3); j++) {
                    assertAt(it, model.get(j));
                    it.next();
                }
                if (at + 3 >= model.size()) {
                    assertFalse(it.isValid());
                }
            }
            checkBackwardAgainstModel(it, model, rnd, probes);
        }
    }

    /** Backward over every entry (across every block), then seekForPrev and random turns against the model. */
    static void checkBackwardAgainstModel(InternalIterator it, List<Entry> model, Random rnd, int probes) {
        it.seekToLast();
        for (int i = model.size() - 1; i >= 0; i--) {
            assertAt(it, model.get(i));
            it.prev();
        }
        assertFalse(it.isValid());
        for (int i = 0; i < probes; i++) {
            byte[] k = Entries.probeKey(rnd, model);
            long s = Entries.probeSeq(rnd, model);
            int at = Entries.floor(model, k, s);
            it.seekForPrev(k, s);
            for (int step = 0; step < 4 && at >= 0 && at < model.size(); step++) {
                assertAt(it, model.get(at));
                if (rnd.nextBoolean()) {
                    it.next();
                    at++;
                } else {
                    it.prev();
                    at--;
                }
            }
            if (at < 0 || at >= model.size()) {
                assertFalse(it.isValid(), "seekForPrev then moves past an end");
            }
        }
    }

    @Test
    void roundTripAgainstModelAcrossConfigurations() throws IOException {
        Random rnd = new Random(TestSeeds.seed("TableTest.roundTripAgainstModelAcrossConfigurations"));
        int[][] configs = {{64, 1, 10}, {256, 2, 10}, {1024, 16, 10}, {4096, 16, 0}, {200, 3, 4}, {1 << 20, 16, 10}};
        for (int[] c : configs) {
            List<Entry> model = Entries.random(rnd, 3000, 200);
            byte[] bytes = Entries.buildTable(model, c[0], c[1], c[2]);
            EngineCounters counters = new EngineCounters();
            try (TableReader table = open(bytes, new BlockCache(1 << 20), counters)) {
                checkAgainstModel(table, model, rnd, 3000);
            }
        }
    }

    @Test
    void manyVersionsOfOneKeyStraddleBlocks() throws IOException {
        List<Entry> model = new ArrayList<>();
        model.add(new Entry("a".getBytes(), 9, InternalKeys.KIND_PUT, "first".getBytes()));
        for (long seq = 1000; seq > 0; seq -= 2) {
            int kind = seq % 10 == 0 ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT;
            byte[] value = kind == InternalKeys.KIND_PUT ? ("v" + seq + "-".repeat(30)).getBytes() : new byte[0];
            model.add(new Entry("hot".getBytes(), seq, kind, value));
        }
        model.add(new Entry("hoz".getBytes(), 1, InternalKeys.KIND_PUT, "last".getBytes()));
        byte[] bytes = Entries.buildTable(model, 128, 4, 10);
        try (TableReader table = open(bytes, new BlockCache(0), new EngineCounters())) {
            Lookup out = new Lookup();
            for (long seq = 1001; seq >= 0; seq--) {
                assertGet(table, model, "hot".getBytes(), seq);
            }
            assertTrue(table.get("hot".getBytes(), InternalKeys.MAX_SEQUENCE, false, out));
            assertEquals(1000, out.sequence);
            assertFalse(table.get("hot".getBytes(), 1, false, out));
            checkAgainstModel(table, model, new Random(1), 500);
        }
    }

    @Test
    void propertiesDescribeTheTable() throws IOException {
        List<Entry> model = Entries.random(new Random(3), 500, 10);
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder builder = new TableBuilder(file, Entries.PATH, 512, 16, 10);
        long deletions = 0;
        long rawKeys = 0;
        long rawValues = 0;
        for (Entry e : model) {
            builder.add(e.key(), e.seq(), e.kind(), e.value());
            deletions += e.kind() == InternalKeys.KIND_DELETE ? 1 : 0;
            rawKeys += e.key().length + 8;
            rawValues += e.value().length;
        }
        assertEquals(model.size(), builder.entries());
        long estimate = builder.estimatedFileSize();
        TableProperties written = builder.finish();
        assertTrue(file.synced && file.closed);
        byte[] bytes = file.bytes();
        assertTrue(Math.abs(estimate - bytes.length) < bytes.length / 10, estimate + " vs " + bytes.length);

        Entry first = model.get(0);
        Entry last = model.get(model.size() - 1);
        TableProperties expected = new TableProperties(bytes.length, model.size(), deletions, first.key(), first.seq(),
                last.key(), last.seq(), rawKeys, rawValues);
        assertEquals(expected, written);
        try (TableReader table = open(bytes, new BlockCache(0), new EngineCounters())) {
            assertEquals(expected, table.properties());
            assertEquals(42, table.fileNumber());
        }
    }

    @Test
    void bloomFilterAnswersAndCountsNegatives() throws IOException {
        List<Entry> model = Entries.random(new Random(5), 2000, 0);
        EngineCounters counters = new EngineCounters();
        try (TableReader table = open(Entries.buildTable(model, 1024, 16, 10), new BlockCache(0), counters)) {
            for (Entry e : model) {
                assertTrue(table.mayContain(e.key()));
            }
            long readsBefore = counters.blockReads.sum();
            int absent = 0;
            Lookup out = new Lookup();
            for (int i = 0; i < 1000; i++) {
                byte[] k = ("absent-" + i).getBytes();
                if (!table.mayContain(k)) {
                    absent++;
                    assertFalse(table.get(k, InternalKeys.MAX_SEQUENCE, true, out));
                }
            }
            assertTrue(absent > 950, "bloom rejected only " + absent);
            assertEquals(absent, counters.bloomNegatives.sum());
            assertEquals(readsBefore, counters.blockReads.sum());
        }
        try (TableReader table = open(Entries.buildTable(model, 1024, 16, 0), new BlockCache(0), counters)) {
            assertTrue(table.mayContain("absent".getBytes()));
        }
    }

    @Test
    void blockCacheHitsAndFillCacheFlag() throws IOException {
        List<Entry> model = Entries.random(new Random(6), 1000, 0);
        byte[] bytes = Entries.buildTable(model, 512, 16, 10);
        EngineCounters counters = new EngineCounters();
        BlockCache cache = new BlockCache(1 << 20);
        try (TableReader table = open(bytes, cache, counters)) {
            Lookup out = new Lookup();
            Entry e = model.get(model.size() / 2);
            long reads = counters.blockReads.sum();
            assertTrue(table.get(e.key(), e.seq(), false, out));
            assertTrue(table.get(e.key(), e.seq(), false, out));
            assertEquals(reads + 2, counters.blockReads.sum());
            assertEquals(0, counters.blockCacheHits.sum());
            assertEquals(0, cache.usedBytes());

            assertTrue(table.get(e.key(), e.seq(), true, out));
            assertTrue(cache.usedBytes() > 0);
            assertTrue(table.get(e.key(), e.seq(), false, out));
            assertEquals(reads + 3, counters.blockReads.sum());
            assertEquals(1, counters.blockCacheHits.sum());

            try (InternalIterator it = table.iterator(true)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    it.key();
                }
            }
            long afterScan = counters.blockReads.sum();
            try (InternalIterator it = table.iterator(false)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    it.key();
                }
            }
            assertEquals(afterScan, counters.blockReads.sum());
        }
    }

    @Test
    void builderRejectsMisuse() throws IOException {
        TableBuilder b = new TableBuilder(new MemFiles.Writable(), Entries.PATH, 4096, 16, 10);
        b.add("b".getBytes(), 5, InternalKeys.KIND_PUT, "v".getBytes());
        byte[] none = new byte[0];
        assertThrows(IllegalArgumentException.class, () -> b.add("b".getBytes(), 5, InternalKeys.KIND_PUT, none));
        assertThrows(IllegalArgumentException.class, () -> b.add("b".getBytes(), 6, InternalKeys.KIND_PUT, none));
        assertThrows(IllegalArgumentException.class, () -> b.add("a".getBytes(), 1, InternalKeys.KIND_PUT, none));
        assertThrows(IllegalArgumentException.class, () -> b.add("c".getBytes(), 1, 7, none));
        assertThrows(IllegalArgumentException.class, () -> b.add("c".getBytes(), -1, InternalKeys.KIND_PUT, none));
        assertThrows(IllegalArgumentException.class,
                () -> b.add("c".getBytes(), InternalKeys.MAX_SEQUENCE + 1, InternalKeys.KIND_PUT, none));
        assertThrows(IllegalArgumentException.class,
                () -> b.add(new byte[InternalKeys.MAX_KEY_LENGTH + 1], 1, InternalKeys.KIND_PUT, none));
        assertThrows(NullPointerException.class, () -> b.add("c".getBytes(), 1, InternalKeys.KIND_PUT, null));
        b.add("b".getBytes(), 4, InternalKeys.KIND_DELETE, null);
        b.add("c".getBytes(), 4, InternalKeys.KIND_PUT, "w".getBytes());
        assertEquals(3, b.entries());
        b.finish();
        assertThrows(IllegalStateException.class, () -> b.add("d".getBytes(), 1, InternalKeys.KIND_PUT, new byte[0]));

        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder empty = new TableBuilder(file, Entries.PATH, 4096, 16, 10);
        assertThrows(IllegalStateException.class, empty::finish);
        empty.abandon();
        empty.abandon();
        assertTrue(file.closed);
    }

    @Test
    void extremeKeysAndSequences() throws IOException {
        List<Entry> model = List.of(
                new Entry(new byte[0], InternalKeys.MAX_SEQUENCE, InternalKeys.KIND_PUT, "e".getBytes()),
                new Entry(new byte[0], 0, InternalKeys.KIND_DELETE, new byte[0]),
                new Entry(new byte[] {0}, 3, InternalKeys.KIND_PUT, new byte[0]),
                new Entry(new byte[InternalKeys.MAX_KEY_LENGTH], 1, InternalKeys.KIND_PUT, new byte[70_000]),
                new Entry(new byte[] {(byte) 0xff, (byte) 0xff}, 2, InternalKeys.KIND_PUT, "z".getBytes()));
        for (int blockSize : new int[] {1, 4096}) {
            byte[] bytes = Entries.buildTable(model, blockSize, 1, 10);
            try (TableReader table = open(bytes, new BlockCache(1 << 20), new EngineCounters())) {
                checkAgainstModel(table, model, new Random(2), 200);
            }
        }
    }

    @Test
    void concurrentReadersAgreeWithTheModel() throws Exception {
        long seed = TestSeeds.seed("TableTest.concurrentReadersAgreeWithTheModel");
        List<Entry> model = Entries.random(new Random(seed), 5000, 50);
        byte[] bytes = Entries.buildTable(model, 512, 16, 10);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (TableReader table = open(bytes, new BlockCache(16 << 10), new EngineCounters())) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long threadSeed = seed + t;
                futures.add(pool.submit(() -> {
                    Random rnd = new Random(threadSeed);
                    for (int i = 0; i < 5000; i++) {
                        assertGet(table, model, Entries.probeKey(rnd, model), Entries.probeSeq(rnd, model));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }
}
