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
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.table.htable.HTableWriter;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.ByteArrayOutputStream;
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
        Mem collected = new Mem();
        w.write(collected, out.get(0).number, List.of());
        assertArrayEquals(collected.out.toByteArray(), s.fs.readAll(FileNames.table(DIR, out.get(0).number)),
                "seed=" + seed);
    }

    @Test
    void aTableOfOneWindowIsCollected() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.small");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 5_000, new Random(seed));
        TrieSink sink = s.sink();
        long seq = 1;
        for (Entry e : entries) {
            sink.addHashed(new Slice().set(e.key()), seq++, InternalKeys.KIND_PUT, new Slice().set(e.value()), e.hi(),
                    e.lo());
        }
        assertTrue(sink.created().isEmpty(), "nothing written before the end, seed=" + seed);
        assertEquals(1, sink.finish().size());
    }

    @Test
    void anAbandonedSinkDeletesTheTableItWasStreaming() throws IOException {
        long seed = TestSeeds.seed("TrieSinkStreamTest.abandon");
        Store s = new Store();
        List<Entry> entries = entries(s.scheme.hash(), 27_000, new Random(seed));
        TrieSink sink = s.sink();
        long seq = 1;
        for (Entry e : entries.subList(0, entries.size() / 2)) {
            sink.addHashed(new Slice().set(e.key()), seq++, InternalKeys.KIND_PUT, new Slice().set(e.value()), e.hi(),
                    e.lo());
        }
        Path table = FileNames.table(DIR, sink.created().get(0));
        assertTrue(s.fs.exists(table), "seed=" + seed);
        sink.abandon();
        assertFalse(s.fs.exists(table), "seed=" + seed);
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

    private static final class Mem implements WritableFile {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override
        public void append(byte[] b, int off, int len) {
            out.write(b, off, len);
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public long size() {
            return out.size();
        }

        @Override
        public void close() {}
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
