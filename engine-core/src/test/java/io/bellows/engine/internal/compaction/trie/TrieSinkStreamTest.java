package io.bellows.engine.internal.compaction.trie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HTableWriter;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * A compaction's sink, fed in hash order, sizes a large table from the first 1/16 of the bucket field
 * and writes it window by window while entries arrive, into the table a collecting writer makes from the
 * same entries; a small table is collected; an abandoned sink closes and deletes a table it was streaming.
 */
class TrieSinkStreamTest {
    private static final Path DIR = Path.of("/db");
    private static final int BUCKETS = 1024;

    private record Entry(byte[] key, long hi, long lo, byte[] value) {}

    private static List<Entry> entries(KeyHash hash, int count, Random rnd) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[16];
            rnd.nextBytes(key);
            byte[] value = new byte[100];
            rnd.nextBytes(value);
            out.add(new Entry(key, hash.hi(key), hash.lo(key), value));
        }
        out.sort((a, b) -> {
            int c = HashOrderCursor.compareHash(a.hi(), b.hi());
            return c != 0 ? c : Bytes.compare(a.key(), b.key());
        });
        return out;
    }

    @Test
    void aLargeTableIsWrittenWhileItsEntriesArrive() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.large");
        Store s = new Store();
        // About 3.2 MB of items: a full 1024-bucket table (3.9 MB), four windows.
        List<Entry> entries = entries(s.scheme.hash(), 27_000, new Random(seed));
        TrieSink sink = s.sink();
        Slice k = new Slice();
        Slice v = new Slice();
        long seq = 1;
        for (int i = 0; i < entries.size() - 1; i++) {
            Entry e = entries.get(i);
            sink.addHashed(k.set(e.key()), seq++, InternalKeys.KIND_PUT, v.set(e.value()), e.hi(), e.lo());
        }
        assertEquals(1, sink.created().size(), "seed=" + seed);
        long before = s.fs.size(FileNames.table(DIR, sink.created().get(0)));
        assertTrue(before >= 3L * 256 * HTableFormat.BUCKET_SIZE, "three windows written before the end: " + before
                + " bytes, seed=" + seed);
        Entry last = entries.get(entries.size() - 1);
        sink.addHashed(k.set(last.key()), seq, InternalKeys.KIND_PUT, v.set(last.value()), last.hi(), last.lo());
        List<FileMeta> out = sink.finish();
        assertEquals(1, out.size());

        HTableWriter w = new HTableWriter(s.scheme.hash(), BUCKETS, s.scheme.bloomBitsPerKey());
        seq = 1;
        for (Entry e : entries) {
            w.add(e.key(), seq++, InternalKeys.KIND_PUT, e.value(), e.hi(), e.lo());
        }
        Path collected = DIR.resolve("collected");
        w.write(s.fs.createTable(collected), out.get(0).number, List.of());
        assertArrayEquals(s.fs.readAll(collected), s.fs.readAll(FileNames.table(DIR, out.get(0).number)),
                "seed=" + seed);
    }

    @Test
    void aTableOfOneWindowIsCollected() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.small");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 5_000, new Random(seed));
        TrieSink sink = s.sink();
        add(sink, entries, 0, entries.size());
        assertTrue(sink.created().isEmpty(), "nothing written before the end, seed=" + seed);
        assertEquals(1, sink.finish().size());
    }

    @Test
    void anAbandonedSinkDeletesTheTableItWasStreaming() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.abandon");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 27_000, new Random(seed));
        TrieSink sink = s.sink();
        add(sink, entries, 0, entries.size() / 2);
        Path table = FileNames.table(DIR, sink.created().get(0));
        assertTrue(s.fs.exists(table), "seed=" + seed);
        sink.abandon();
        assertFalse(s.fs.exists(table), "seed=" + seed);
    }

    /** Readers of the tables {@code metas} name; every entry reads back from one of them. */
    private static List<HTableReader> assertHolds(Store s, List<FileMeta> metas, List<Entry> entries, long seed)
            throws IOException {
        List<HTableReader> readers = new ArrayList<>();
        for (FileMeta f : metas) {
            Path path = FileNames.table(DIR, f.number);
            readers.add(HTableReader.open(s.fs.openTable(path), path, f.number, new FilterPageCache(0),
                    new EngineCounters()));
        }
        Lookup lk = new Lookup();
        for (Entry e : entries) {
            int found = 0;
            for (HTableReader r : readers) {
                if (r.get(e.key(), Long.MAX_VALUE >>> 8, lk)) {
                    found++;
                    assertArrayEquals(e.value(), lk.copyValue(), "seed=" + seed);
                }
            }
            assertEquals(1, found, "a key is in one table of the batch, seed=" + seed);
        }
        long overflow = 0;
        for (HTableReader r : readers) {
            overflow += r.overflowItems();
        }
        assertTrue(overflow < entries.size() / 100, overflow + " of " + entries.size() + " items overflow, seed="
                + seed);
        return readers;
    }

    /** Adds {@code entries[from, to)} as a compaction does, sequence numbers from {@code from + 1}. */
    private static void add(TrieSink sink, List<Entry> entries, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            Entry e = entries.get(i);
            sink.addHashed(new Slice().set(e.key()), i + 1, InternalKeys.KIND_PUT, new Slice().set(e.value()), e.hi(),
                    e.lo());
        }
    }

    /**
     * More than a full table with nothing expected: cut by fill, each table covers part of the bucket field,
     * so it balances across all its buckets (one window) instead of overflowing its empty windows' share.
     */
    @Test
    void tablesCutByFillBalanceWhole() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.cut");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 60_000, new Random(seed));
        TrieSink sink = s.sink();
        add(sink, entries, 0, entries.size());
        List<FileMeta> out = sink.finish();
        assertEquals(2, out.size(), "seed=" + seed);
        for (HTableReader r : assertHolds(s, out, entries, seed)) {
            assertEquals(r.buckets(), r.window(), "seed=" + seed);
        }
    }

    /** More than a full table expected: split into parts by hash bits, each streamed in windows. */
    @Test
    void anOutputExpectedLargerThanATableIsSplitIntoStreamedParts() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.split");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 60_000, new Random(seed));
        TrieSink sink = s.sink();
        // 7.2 MB expected, 1.8 full 1024-bucket tables (3.97 MB each): two parts.
        sink.expect(Containers.ROOT, 60_000L * 120, 60_000);
        add(sink, entries, 0, entries.size() / 2);
        assertEquals(2, sink.created().size(), "two parts streamed before the end, seed=" + seed);
        add(sink, entries, entries.size() / 2, entries.size());
        List<FileMeta> out = sink.finish();
        assertEquals(2, out.size(), "seed=" + seed);
        for (HTableReader r : assertHolds(s, out, entries, seed)) {
            assertEquals(HTableFormat.WINDOW_BUCKETS, r.window(), "seed=" + seed);
            assertTrue(r.buckets() > HTableFormat.WINDOW_BUCKETS, "seed=" + seed);
        }
    }

    /**
     * Just under a full table of many items expected: one table. Parts are counted with three spreads of
     * a child's share (1.5% at 33,000 items), not with the 3% that split such a child into two half tables.
     */
    @Test
    void anOutputExpectedJustUnderAFullTableOfManyItemsIsOneTable() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.nearlyFull");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 27_000, new Random(seed));
        TrieSink sink = s.sink();
        long expected = HTableFormat.capacity(BUCKETS) * 98 / 100;
        sink.expect(Containers.ROOT, expected, expected / 120);
        add(sink, entries, 0, entries.size());
        List<FileMeta> out = sink.finish();
        assertEquals(1, out.size(), "seed=" + seed);
        assertHolds(s, out, entries, seed);
    }

    /** A store with no tables to read (the sinks here write onto empty piles). */
    private static final class NoTables implements TableSource {
        @Override
        public InternalIterator iterator(FileMeta file, boolean fillCache) {
            throw new UnsupportedOperationException("no tables");
        }

        @Override
        public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) {
            throw new UnsupportedOperationException("no tables");
        }

        @Override
        public <T extends OpenTable> T reader(FileMeta file, Class<T> format) {
            throw new UnsupportedOperationException("no tables");
        }
    }

    /** A new store of 1024-bucket tables. */
    private static final class Store {
        final CrashableFileSystem fs = new CrashableFileSystem();
        final TrieScheme scheme;
        final TableWriteContext ctx;

        Store() throws IOException {
            fs.createDirectories(DIR);
            EngineOptions o = EngineOptions.builder()
                    .compaction(TrieOptions.builder().tableBuckets(BUCKETS).depth(3).pileLimits(4, 8, 12).hashSeed(1)
                            .build())
                    .build();
            scheme = new TrieScheme(o);
            VersionSet versions = new VersionSet(DIR, fs, 3, scheme, () -> {});
            versions.create("LSM_TRIE");
            ctx = new TableWriteContext(DIR, fs, versions, new TableOutputs.Format(4096, 16, 10), new HashSet<>(),
                    new NoTables(), new LongAdder(), null);
        }

        /** A compaction's sink writing into the root (as an in-place merge of it does). */
        TrieSink sink() {
            return new TrieSink(ctx, scheme, 0, Set.of(), 0);
        }
    }
}
