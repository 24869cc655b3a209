package io.bellows.engine.offheap;

import static io.bellows.engine.offheap.ModelCells.assertHolds;
import static io.bellows.engine.offheap.ModelCells.assertYields;
import static io.bellows.engine.offheap.ModelCells.release;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.Compacted;
import io.bellows.engine.internal.memstore.spi.ImmutableSegment;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Retention;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import io.bellows.engine.offheap.ModelCells.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Serialized segments built by flattening, merging and compacting under the OFF_HEAP layout, against a
 * TreeSet model of the same random cells: every entry (key, sequence, kind, value) in internal order,
 * lookups and seeks at present and missing keys, sizes, and the versions a compaction drops.
 */
class SerializedSegmentTest {
    /** 64 KiB data chunks (records above 8 KiB go to jumbo chunks) and 8 KiB index chunks. */
    private static final EngineOptions OPTIONS = EngineOptions.builder()
            .memoryLayout(MemoryLayout.OFF_HEAP)
            .memstoreSize(16 << 20)
            .activeSegmentFraction(0.25)
            .mslabChunkSize(64 << 10)
            .build();
    private static final int JUMBO_VALUE = (64 << 10) / 8;

    private ChunkPool pool;
    private OffHeapLayout layout;

    @BeforeEach
    void open() {
        pool = OffHeapLayoutProvider.pool(OPTIONS, true);
        layout = new OffHeapLayout(pool);
        assertEquals(64 << 10, pool.dataChunkSize());
        assertEquals(8 << 10, pool.indexChunkSize());
    }

    @AfterEach
    void close() {
        assertEquals(0, pool.chunksInUse(), "every segment gave its chunks back");
        layout.close();
        assertEquals(0, pool.allocatedBytes(), "close released the free chunks");
    }

    @Test
    void flattenMergeAndCompactMatchTheModel() {
        long seed = TestSeeds.seed("SerializedSegmentTest.flattenMergeAndCompactMatchTheModel");
        Random rnd = new Random(seed);
        String ctx = "seed=" + seed;
        ModelCells gen = new ModelCells(rnd, 400, JUMBO_VALUE);
        // Four active segments, oldest first; the pipeline lists them newest first.
        List<Segment> pipeline = new ArrayList<>();
        List<TreeSet<Entry>> models = new ArrayList<>();
        TreeSet<Entry> all = new TreeSet<>(ModelCells.ORDER);
        for (int i = 0; i < 4; i++) {
            MutableSegment s = layout.newMutable();
            TreeSet<Entry> m = new TreeSet<>(ModelCells.ORDER);
            gen.fill(s, 300 + rnd.nextInt(700), m);
            assertHolds(m, s, ctx + " active " + i);
            try (InternalIterator it = s.iterator()) {
                List<byte[]> probes = new ArrayList<>(gen.keys());
                probes.addAll(gen.missingKeys(20));
                assertBackward(m, it, probes, gen.lastSequence(), rnd, ctx + " active " + i);
            }
            pipeline.add(0, s);
            models.add(0, m);
            all.addAll(m);
        }
        assertTrue(hasJumboChunk(pipeline), "some cells are large enough for jumbo chunks");

        // Flatten each active segment; the flat form must hold the same cells and share their chunks.
        List<Segment> flat = new ArrayList<>();
        for (int i = 0; i < pipeline.size(); i++) {
            ImmutableSegment f = layout.flatten(pipeline.get(i));
            assertEquals("serialized", f.kind());
            assertHolds(models.get(i), f, ctx + " flattened " + i);
            assertEquals(ModelCells.uniqueKeys(models.get(i)), f.uniqueKeys(), ctx + " uniqueKeys");
            assertLookups(models.get(i), f, gen, rnd, ctx + " flattened " + i);
            flat.add(f);
        }
        // Merge a mix of active and serialized inputs, then merge merged ones again.
        List<Segment> mixed = List.of(pipeline.get(0), flat.get(1), pipeline.get(2), flat.get(3));
        ImmutableSegment merged = layout.merge(mixed);
        assertHolds(all, merged, ctx + " merged");
        assertEquals(ModelCells.uniqueKeys(all), merged.uniqueKeys(), ctx + " merged uniqueKeys");
        assertLookups(all, merged, gen, rnd, ctx + " merged");
        ImmutableSegment half1 = layout.merge(List.of(flat.get(0), flat.get(1)));
        ImmutableSegment half2 = layout.merge(List.of(flat.get(2), flat.get(3)));
        ImmutableSegment again = layout.merge(List.of(half1, half2));
        assertHolds(all, again, ctx + " merge of merges");
        assertEquals(ModelCells.uniqueKeys(all), again.uniqueKeys(), ctx + " merge of merges uniqueKeys");
        // A large serialized input with smaller ones of both kinds in front: the others gallop into it.
        ImmutableSegment intoLarge = layout.merge(List.of(pipeline.get(0), flat.get(1), half2));
        assertHolds(all, intoLarge, ctx + " merged into the largest");
        assertEquals(ModelCells.uniqueKeys(all), intoLarge.uniqueKeys(), ctx + " merged into the largest uniqueKeys");
        assertEquals(all.stream().mapToLong(Entry::dataSize).sum(), intoLarge.dataSize(), ctx + " dataSize");
        assertEquals(all.size(), intoLarge.entries(), ctx + " entries");
        assertLookups(all, intoLarge, gen, rnd, ctx + " merged into the largest");

        // Compact with read points spread over the sequences written.
        long last = gen.lastSequence();
        long[] snapshots = {last / 5, last / 3, last / 3 + 1, last / 2};
        for (long published : new long[] {last, last * 3 / 4, last + 10}) {
            TreeSet<Entry> kept = retained(all, snapshots, published);
            assertTrue(kept.size() < all.size(), ctx + " the read points leave versions to drop");
            Compacted c = layout.compact(mixed, new Retention(snapshots, published));
            String cc = ctx + " compacted at published=" + published;
            assertHolds(kept, c.segment(), cc);
            assertEquals(ModelCells.uniqueKeys(kept), c.segment().uniqueKeys(), cc + " uniqueKeys");
            assertEquals(all.size() - kept.size(), c.cellsEliminated(), cc + " cells eliminated");
            assertEquals(all.stream().mapToLong(Entry::dataSize).sum() - kept.stream().mapToLong(Entry::dataSize).sum(),
                    c.bytesEliminated(), cc + " bytes eliminated");
            assertLookups(kept, c.segment(), gen, rnd, cc);
            release(c.segment());
        }
        // Retention with no reader behind the newest versions: one version per key is left.
        Compacted newest = layout.compact(List.of(again), new Retention(new long[0], last));
        assertEquals(ModelCells.uniqueKeys(all), newest.segment().entries(), ctx + " one version per key");
        assertHolds(retained(all, new long[0], last), newest.segment(), ctx + " newest only");
        release(newest.segment());

        for (Segment s : List.of(merged, half1, half2, again, intoLarge)) {
            release(s);
        }
        flat.forEach(ModelCells::release);
        pipeline.forEach(ModelCells::release);
    }

    /**
     * The versions compaction must keep, modeled from what readers can see rather than from
     * {@link Retention}'s stripes: every version above {@code published} (its write group may not be
     * visible yet), and for each read point (the snapshots and {@code published}) the version a reader
     * there sees, i.e. the newest at or below it. Everything else is invisible to every reader.
     */
    static TreeSet<Entry> retained(TreeSet<Entry> all, long[] snapshots, long published) {
        long[] points = Arrays.copyOf(snapshots, snapshots.length + 1);
        points[snapshots.length] = published;
        TreeSet<Entry> kept = new TreeSet<>(ModelCells.ORDER);
        for (Entry e : all) {
            if (e.seq() > published) {
                kept.add(e);
            }
        }
        for (byte[] key : all.stream().map(Entry::key).distinct().toList()) {
            for (long p : points) {
                Entry v = ModelCells.visible(all, key, p);
                if (v != null) {
                    kept.add(v);
                }
            }
        }
        return kept;
    }

    /** get() and iterator seek at present and missing keys and at several sequences, against the model. */
    private static void assertLookups(TreeSet<Entry> model, Segment s, ModelCells gen, Random rnd, String ctx) {
        List<byte[]> probes = new ArrayList<>(gen.keys());
        probes.addAll(gen.missingKeys(100));
        probes.add(new byte[0]);
        long last = gen.lastSequence();
        Lookup lk = new Lookup();
        for (byte[] key : probes) {
            for (long seq : new long[] {0, 1 + rnd.nextInt((int) last), last, InternalKeys.MAX_SEQUENCE}) {
                Entry want = ModelCells.visible(model, key, seq);
                boolean found = s.get(key, seq, lk);
                String at = ctx + " get " + Arrays.toString(key) + " at " + seq;
                assertEquals(want != null, found, at);
                if (found) {
                    assertEquals(want, new Entry(key, lk.sequence, lk.kind, lk.copyValue()), at);
                }
                if (s instanceof SerializedSegment ser) {
                    // The ceiling index, and the floor (the entry before it) TreeSet would answer.
                    Entry probe = new Entry(key, seq, 0, null);
                    int i = ser.ceiling(key, seq);
                    Entry ceiling = model.ceiling(probe);
                    Entry floor = model.lower(probe);
                    assertEquals(ceiling, i == ser.size() ? null : entry(ser, i), at + " ceiling");
                    assertEquals(floor, i == 0 ? null : entry(ser, i - 1), at + " floor");
                }
            }
        }
        try (InternalIterator it = s.iterator()) {
            for (int i = 0; i < 50; i++) {
                byte[] key = probes.get(rnd.nextInt(probes.size()));
                long seq = rnd.nextInt((int) last + 2);
                it.seek(key, seq);
                List<Entry> expected = model.tailSet(new Entry(key, seq, 0, null), true).stream().limit(20).toList();
                for (int k = 0; k < expected.size(); k++) {
                    assertTrue(it.isValid(), ctx + " seek");
                    assertEquals(expected.get(k), new Entry(it.key(), it.sequence(), it.kind(), it.value()),
                            ctx + " seek " + Arrays.toString(key) + "@" + seq + " +" + k);
                    it.next();
                }
                if (expected.size() < 20) {
                    assertFalse(it.isValid(), ctx + " seek past the end");
                }
            }
            it.seekToFirst();
            assertYields(model, it, ctx + " seekToFirst after seeks");
            assertBackward(model, it, probes, last, rnd, ctx);
        }
    }

    /** seekToLast and prev over the whole segment, then seekForPrev with random turns, against the model. */
    private static void assertBackward(TreeSet<Entry> model, InternalIterator it, List<byte[]> probes, long last,
            Random rnd, String ctx) {
        it.seekToLast();
        for (Entry e : model.descendingSet()) {
            assertTrue(it.isValid(), ctx + " backward ended early");
            assertEquals(e, new Entry(it.key(), it.sequence(), it.kind(), it.value()), ctx + " backward");
            it.prev();
        }
        assertFalse(it.isValid(), ctx + " prev from the first entry");
        for (int i = 0; i < 50; i++) {
            byte[] key = probes.get(rnd.nextInt(probes.size()));
            long seq = rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(last + 2);
            Entry expect = model.floor(new Entry(key, seq, 0, null));
            it.seekForPrev(key, seq);
            String at = ctx + " seekForPrev " + Arrays.toString(key) + "@" + seq;
            for (int step = 0; step < 8 && expect != null; step++) {
                assertTrue(it.isValid(), at + " +" + step);
                assertEquals(expect, new Entry(it.key(), it.sequence(), it.kind(), it.value()), at + " +" + step);
                if (rnd.nextBoolean()) {
                    it.next();
                    expect = model.higher(expect);
                } else {
                    it.prev();
                    expect = model.lower(expect);
                }
            }
            if (expect == null) {
                assertFalse(it.isValid(), at + " past an end");
            }
        }
    }

    private static Entry entry(SerializedSegment s, int i) {
        long t = s.trailer(i);
        int kind = InternalKeys.kind(t);
        return new Entry(s.key(i), InternalKeys.sequence(t), kind, s.value(i, kind));
    }

    private static boolean hasJumboChunk(List<Segment> segments) {
        for (Segment s : segments) {
            for (SegmentMemory m : s.memory()) {
                PooledChunks c = (PooledChunks) m;
                for (int i = 0; i < c.chunkCount(); i++) {
                    if (c.chunk(i).kind == Chunk.Kind.JUMBO) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Test
    void emptyValuesTombstonesAndLargeCellsRoundTrip() {
        MutableSegment s = layout.newMutable();
        byte[] big = new byte[3 * JUMBO_VALUE];
        new Random(7).nextBytes(big);
        byte[] longKey = new byte[1000];
        Arrays.fill(longKey, (byte) 0xab);
        byte[] maxKey = new byte[InternalKeys.MAX_KEY_LENGTH]; // the u16 key length at its top
        Arrays.fill(maxKey, (byte) 0xfe);
        List<Entry> in = List.of(
                new Entry(new byte[0], 1, InternalKeys.KIND_PUT, new byte[0]),
                new Entry("a".getBytes(), 2, InternalKeys.KIND_PUT, new byte[0]),
                new Entry("a".getBytes(), 3, InternalKeys.KIND_DELETE, null),
                new Entry("b".getBytes(), 4, InternalKeys.KIND_PUT, big),
                new Entry("c".getBytes(), 5, InternalKeys.KIND_DELETE, null),
                new Entry(longKey, 6, InternalKeys.KIND_PUT, Arrays.copyOf(big, JUMBO_VALUE)),
                new Entry(longKey, 7, InternalKeys.KIND_PUT, "small".getBytes()),
                new Entry(maxKey, 8, InternalKeys.KIND_PUT, "v".getBytes()),
                new Entry(maxKey, 9, InternalKeys.KIND_DELETE, null));
        TreeSet<Entry> model = new TreeSet<>(ModelCells.ORDER);
        for (Entry e : in) {
            s.add(e.key(), e.seq(), e.kind(), e.value());
            model.add(e);
        }
        ImmutableSegment f = layout.flatten(s);
        Compacted all = layout.compact(List.of(f), new Retention(new long[0], 0));
        for (Segment seg : List.of(s, f, all.segment())) {
            assertHolds(model, seg, seg.kind());
            Lookup lk = new Lookup();
            assertTrue(seg.get("a".getBytes(), 2, lk));
            assertArrayEquals(new byte[0], lk.copyValue(), "an empty value is not a tombstone");
            assertTrue(seg.get("a".getBytes(), 3, lk));
            assertEquals(InternalKeys.KIND_DELETE, lk.kind);
            assertEquals(null, lk.copyValue());
            assertTrue(seg.get("b".getBytes(), 10, lk));
            assertArrayEquals(big, lk.copyValue());
            assertTrue(seg.get(new byte[0], 10, lk));
            assertArrayEquals(new byte[0], lk.copyValue());
            assertTrue(seg.get(maxKey, 8, lk));
            assertArrayEquals("v".getBytes(), lk.copyValue());
            assertFalse(seg.get(Arrays.copyOf(maxKey, maxKey.length - 1), 10, lk), "a prefix is another key");
        }
        assertEquals(0, all.cellsEliminated(), "published 0: every version may be unpublished, so all stay");
        for (Segment seg : List.of(all.segment(), f, s)) {
            release(seg);
        }
    }

    @Test
    void emptySegmentsFlattenAndMerge() {
        MutableSegment s = layout.newMutable();
        ImmutableSegment f = layout.flatten(s);
        ImmutableSegment m = layout.merge(List.of(f, s));
        for (Segment seg : List.of(f, m)) {
            assertHolds(new TreeSet<>(ModelCells.ORDER), seg, "empty");
            assertFalse(seg.get(new byte[0], InternalKeys.MAX_SEQUENCE, new Lookup()));
        }
        for (Segment seg : List.of(m, f, s)) {
            release(seg);
        }
    }

    /**
     * 16 bytes of off-heap index per entry and no Java object per entry: a serialized segment's heap is
     * its two chunk tables, so 100,000 entries take a few KB of heap where a flat segment of cell objects
     * would take megabytes.
     */
    @Test
    void indexIs16BytesPerEntryAndHeapStaysFlat() {
        MutableSegment s = layout.newMutable();
        int n = 100_000;
        long data = 0;
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("key%08d", i).getBytes();
            byte[] value = new byte[i % 16];
            s.add(key, i + 1, InternalKeys.KIND_PUT, value);
            data += key.length + value.length;
        }
        SerializedSegment f = (SerializedSegment) layout.flatten(s);
        assertEquals(n, f.entries());
        assertEquals(data, f.dataSize());
        assertEquals(n * (IndexChunks.ENTRY + OffHeapMslab.HEADER) + data, f.offHeapSize(),
                "16-byte index entry and 6-byte record header per entry, plus key and value bytes");
        IndexChunks index = (IndexChunks) f.memory().get(0);
        int perChunk = pool.indexChunkSize() / 16;
        assertEquals((n + perChunk - 1) / perChunk, index.chunkCount(), "index chunks hold 16-byte entries");
        int dataChunks = f.dataChunks().length;
        assertEquals(160 + 4L * (dataChunks + index.chunkCount()), f.heapSize());
        assertTrue(f.heapSize() < 4096, "100k entries hold " + f.heapSize() + " bytes of heap");
        assertTrue(s.heapSize() > 80L * n, "the skiplist it flattens holds objects per entry: " + s.heapSize());

        MutableSegment small = layout.newMutable();
        small.add("k".getBytes(), n + 1, InternalKeys.KIND_PUT, new byte[8]);
        ImmutableSegment one = layout.flatten(small);
        assertTrue(f.heapSize() - one.heapSize() < 2048, "heap grows by chunk, not by entry: " + one.heapSize()
                + " for one entry, " + f.heapSize() + " for " + n);
        for (Segment seg : List.of(one, small, f, s)) {
            release(seg);
        }
    }

    /**
     * HBase's CellChunkMap made a cell object and a chunk-id hash lookup on every probe. A serialized
     * segment's lookup that misses allocates nothing; one that hits allocates only the value it copies.
     */
    @Test
    void probesAllocateNothingBeforeTheValueCopy() {
        MutableSegment s = layout.newMutable();
        for (int i = 0; i < 4000; i++) {
            s.add(String.format("k%06d", 2 * i).getBytes(), i + 1, InternalKeys.KIND_PUT, new byte[20]);
        }
        ImmutableSegment f = layout.flatten(s);
        byte[][] missing = new byte[4000][];
        byte[][] present = new byte[4000][];
        for (int i = 0; i < missing.length; i++) {
            missing[i] = String.format("k%06d", 2 * i + 1).getBytes();
            present[i] = String.format("k%06d", 2 * i).getBytes();
        }
        ThreadAllocations.assumeCounted();
        Lookup lk = new Lookup();
        for (int round = 0; round < 5; round++) { // warm up so the JIT has settled
            probe(f, missing, lk);
            probe(f, present, lk);
        }
        long before = ThreadAllocations.allocated();
        for (int round = 0; round < 50; round++) {
            assertEquals(0, probe(f, missing, lk));
        }
        long missAlloc = ThreadAllocations.allocated() - before;
        before = ThreadAllocations.allocated();
        for (int round = 0; round < 50; round++) {
            assertEquals(present.length, probe(f, present, lk));
        }
        long hitAlloc = ThreadAllocations.allocated() - before;
        assertTrue(missAlloc < 50_000, "200000 missing probes allocated " + missAlloc + " bytes");
        // A 20-byte value is a 40-byte array: 200000 hits may allocate those and nothing else per probe.
        assertTrue(hitAlloc < 200_000L * 40 + 50_000, "200000 hits allocated " + hitAlloc + " bytes");
        release(f);
        release(s);
    }

    private static int probe(Segment s, byte[][] keys, Lookup lk) {
        int found = 0;
        for (byte[] k : keys) {
            if (s.get(k, Long.MAX_VALUE >>> 8, lk)) {
                found++;
            }
        }
        return found;
    }
}
