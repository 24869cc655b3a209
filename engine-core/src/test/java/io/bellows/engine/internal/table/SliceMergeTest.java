package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Compression;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.iter.MergingIterator;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.Entries.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The slice contract on the compaction path (issue 16 item 1): a merge of tables read through key and
 * value views, written through {@link TableBuilder#add(Slice, long, int, Slice)}, gives the same table
 * as the copying path, and allocates nothing per entry: blocks are read into the iterators' reused
 * arrays ({@link BlockBuffers}) and entries go from them straight into the new table's block.
 */
class SliceMergeTest {
    @Test
    void mergeThroughViewsWritesWhatTheInputsHold() throws IOException {
        long seed = TestSeeds.seed("SliceMergeTest.mergeThroughViewsWritesWhatTheInputsHold");
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            List<Entry> model = Entries.random(rnd, 200 + rnd.nextInt(3000), rnd.nextInt(40));
            int tables = 1 + rnd.nextInt(5);
            List<List<Entry>> parts = new ArrayList<>();
            for (int t = 0; t < tables; t++) {
                parts.add(new ArrayList<>());
            }
            for (Entry e : model) {
                parts.get(rnd.nextInt(tables)).add(e);
            }
            List<TableReader> readers = new ArrayList<>();
            // Compressed inputs too: their blocks decode into the iterator's reused arrays.
            Compression codec = Compression.values()[rnd.nextInt(Compression.values().length)];
            for (List<Entry> part : parts) {
                readers.add(open(build(part, 64 + rnd.nextInt(4096), codec)));
            }
            byte[] merged = merge(readers, true);
            try (InternalIterator it = open(merged).iterator(false)) {
                it.seekToFirst();
                for (Entry e : model) {
                    TableTest.assertAt(it, e);
                    it.next();
                }
                assertFalse(it.isValid(), "seed " + seed + ": the merge wrote more than its inputs held");
            }
            assertArrayEquals(merge(readers, false), merged, "seed " + seed + ": views and copies differ");
        }
    }

    /**
     * The views stay where their iterator left them: a merge compares children's keys in place, so a
     * child's view must not change while another child moves.
     */
    @Test
    void viewsMatchTheCopiesAtEveryEntry() throws IOException {
        long seed = TestSeeds.seed("SliceMergeTest.viewsMatchTheCopiesAtEveryEntry");
        Random rnd = new Random(seed);
        List<Entry> model = Entries.random(rnd, 4000, 20);
        List<Entry> a = new ArrayList<>();
        List<Entry> b = new ArrayList<>();
        for (Entry e : model) {
            (rnd.nextBoolean() ? a : b).add(e);
        }
        try (InternalIterator ia = open(build(a, 256)).iterator(false);
                InternalIterator ib = open(build(b, 256)).iterator(false)) {
            ia.seekToFirst();
            ib.seekToFirst();
            Slice held = ia.keySlice();
            byte[] heldCopy = held.copy();
            for (int i = 0; i < 500 && ib.isValid(); i++) {
                ib.next();
            }
            assertTrue(held.contentEquals(heldCopy), "seed " + seed + ": a view changed while another iterator moved");
            for (; ia.isValid(); ia.next()) {
                assertTrue(ia.keySlice().contentEquals(ia.key()), "seed " + seed);
                byte[] v = ia.kind() == InternalKeys.KIND_PUT ? ia.value() : new byte[0];
                assertTrue(ia.valueSlice().contentEquals(v), "seed " + seed);
            }
        }
    }

    @Test
    void mergeThroughViewsCopiesNoEntry() throws IOException {
        ThreadAllocations.assumeCounted();
        int n = 20_000;
        List<Entry> a = new ArrayList<>();
        List<Entry> b = new ArrayList<>();
        byte[] value = new byte[100];
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("key%013d", i).getBytes();
            (i % 2 == 0 ? a : b).add(new Entry(key, i + 1, InternalKeys.KIND_PUT, value));
        }
        List<TableReader> readers = List.of(open(build(a, 4096)), open(build(b, 4096)));
        for (int warm = 0; warm < 3; warm++) {
            merge(readers, true);
            merge(readers, false);
        }
        long views = allocatedBy(readers, true);
        long copies = allocatedBy(readers, false);
        // An entry is 16 + 100 bytes: the copying path allocates a key and a value array per entry
        // (about 150 bytes), the views path none; both read their blocks into the iterators' reused arrays.
        System.out.printf("SliceMergeTest: %d entries, %.1f bytes/entry through views, %.1f through copies%n", n,
                (double) views / n, (double) copies / n);
        assertTrue(copies - views > 120L * n, views + " bytes through views, " + copies + " through copies");
        // What is left: the filter's key hashes (8 bytes a key, in a growing list) and a few objects per block.
        assertTrue(views < 64L * n, views + " bytes through views for " + n + " entries");
    }

    private static long allocatedBy(List<TableReader> readers, boolean views)
            throws IOException {
        long before = ThreadAllocations.allocated();
        merge(readers, views, new Discarding());
        return ThreadAllocations.allocated() - before;
    }

    private static byte[] merge(List<TableReader> readers, boolean views) throws IOException {
        MemFiles.Writable out = new MemFiles.Writable();
        merge(readers, views, out);
        return out.bytes();
    }

    /** Merges every table into a new one in {@code out}, through views or through copied arrays. */
    private static void merge(List<TableReader> readers, boolean views, WritableFile out) throws IOException {
        List<InternalIterator> its = new ArrayList<>();
        for (TableReader r : readers) {
            its.add(r.iterator(false));
        }
        TableBuilder builder = new TableBuilder(out, Entries.PATH, 4096, 16, 10);
        try (MergingIterator it = new MergingIterator(its)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                if (views) {
                    builder.add(it.keySlice(), it.sequence(), it.kind(), it.valueSlice());
                } else {
                    builder.add(it.key(), it.sequence(), it.kind(), it.value());
                }
            }
        }
        builder.finish();
    }

    /** A file that keeps nothing, so that what a merge allocates is measured without the file's buffer. */
    private static final class Discarding implements WritableFile {
        private long size;

        @Override
        public void append(byte[] b, int off, int len) {
            size += len;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public long size() {
            return size;
        }

        @Override
        public void close() {}
    }

    private static byte[] build(List<Entry> entries, int blockSize) throws IOException {
        return build(entries, blockSize, Compression.NONE);
    }

    private static byte[] build(List<Entry> entries, int blockSize, Compression codec) throws IOException {
        MemFiles.Writable out = new MemFiles.Writable();
        TableBuilder builder = new TableBuilder(out, Entries.PATH, blockSize, 16, 10, codec);
        for (Entry e : entries) {
            builder.add(e.key(), e.seq(), e.kind(), e.value());
        }
        builder.finish();
        return out.bytes();
    }

    private static TableReader open(byte[] bytes) throws IOException {
        return TableReader.open(new MemFiles.Readable(bytes), Entries.PATH, 42, new BlockCache(0), new EngineCounters());
    }
}
