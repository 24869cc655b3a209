package io.bellows.engine.internal.memstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The flat index against the skiplist it flattens and against TreeSet's navigation. */
class FlatSegmentTest {
    private static byte[] key(int i) {
        return String.format("k%04d", i).getBytes();
    }

    /** The mutable segments a flat segment is built from. */
    private enum Kind {
        /** NONE without an MSLAB: cells with arrays of their own. */
        OWN_ARRAYS,
        /** The compacting policies' active segment: cells in an MSLAB. */
        MSLAB,
        /** NONE's arena skiplist. */
        ARENA
    }

    /**
     * Even keys 0..2n with 1..3 versions each, so odd keys and out-of-range keys are missing, in a segment
     * of {@code kind} over {@code pool}.
     */
    private static MutableSegment sample(Random rnd, int n, Kind kind, ChunkPool pool) {
        MutableSegment s = switch (kind) {
            case OWN_ARRAYS -> new SkipListSegment();
            case MSLAB -> new SkipListSegment(new Mslab(pool));
            case ARENA -> new InlineSkipListSegment(new NodeArena(pool));
        };
        long seq = 1;
        for (int i = 0; i < n; i++) {
            int versions = 1 + rnd.nextInt(3);
            for (int v = 0; v < versions; v++) {
                seq += 1 + rnd.nextInt(3);
                boolean delete = rnd.nextInt(5) == 0;
                s.add(key(2 * i + 2), seq, delete ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT,
                        delete ? null : ("v" + seq).getBytes());
            }
        }
        return s;
    }

    /**
     * HBase's CellFlatMap answered lower/floor/ceiling/higher wrongly when the probe is missing (p+1 or
     * p+2 where p-1 or p is right). Our one navigation primitive, the ceiling, and the floor it implies
     * (the entry before it), must match TreeSet for present, missing, first, last and out-of-range probes.
     */
    @Test
    void cellFlatMapFloorCeilingOnMissingKeys() {
        long seed = TestSeeds.seed("FlatSegmentTest.cellFlatMapFloorCeilingOnMissingKeys");
        Random rnd = new Random(seed);
        MutableSegment skip = sample(rnd, 300, Kind.OWN_ARRAYS, null);
        FlatSegment flat = SegmentBuilder.flatten(skip);
        TreeSet<Cell> set = new TreeSet<>(Cell.ORDER);
        ((CellSource) skip).cells().forEachRemaining(set::add);
        assertEquals(set.size(), flat.size());
        for (int k = 0; k <= 604; k++) {
            for (long seq : new long[] {0, 1, rnd.nextInt(2000), 5000, Long.MAX_VALUE >>> 8}) {
                byte[] key = key(k);
                Cell probe = Cell.probe(key, seq);
                int i = flat.ceiling(key, seq);
                Cell ceiling = set.ceiling(probe);
                Cell floor = set.lower(probe);
                assertSame(ceiling, i == flat.size() ? null : flat.cell(i), "seed=" + seed + " ceiling k=" + k);
                assertSame(floor, i == 0 ? null : flat.cell(i - 1), "seed=" + seed + " floor k=" + k);
            }
        }
        assertEquals(0, flat.ceiling(new byte[0], 0), "before the first key");
        assertEquals(flat.size(), flat.ceiling(new byte[] {(byte) 0xff}, 0), "after the last key");
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"MSLAB", "ARENA"})
    void flatteningKeepsLookupsIterationAndSizes(Kind kind) {
        long seed = TestSeeds.seed("FlatSegmentTest.flatteningKeepsLookupsIterationAndSizes");
        Random rnd = new Random(seed);
        ChunkPool pool = new ChunkPool(4096, 16);
        MutableSegment skip = sample(rnd, 200, kind, pool);
        FlatSegment flat = SegmentBuilder.flatten(skip);
        assertEquals(skip.dataSize(), flat.dataSize(), "flattening moves no data");
        assertEquals(skip.entries(), flat.entries());
        assertEquals(skip.minSequence(), flat.minSequence());
        assertEquals(skip.maxSequence(), flat.maxSequence());
        assertSame(skip.memory(), flat.memory(), "the flat index shares the skiplist's chunks");
        if (kind == Kind.MSLAB) {
            // An array slot per cell instead of a map node; the arena's nodes weigh less than the cells a
            // flat segment of them holds, which is why NONE, which never flattens, uses it.
            assertTrue(flat.heapSize() < skip.heapSize());
        }
        Lookup a = new Lookup();
        Lookup b = new Lookup();
        for (int k = 0; k < 404; k++) {
            long seq = rnd.nextInt(1500);
            boolean found = skip.get(key(k), seq, a);
            assertEquals(found, flat.get(key(k), seq, b), "seed=" + seed);
            if (found) {
                assertEquals(a.sequence, b.sequence);
                assertEquals(a.kind, b.kind);
                assertArrayEquals(a.copyValue(), b.copyValue());
            }
        }
        try (InternalIterator x = skip.iterator(); InternalIterator y = flat.iterator()) {
            x.seek(key(101), 40);
            y.seek(key(101), 40);
            while (x.isValid()) {
                assertTrue(y.isValid());
                assertArrayEquals(x.key(), y.key());
                assertEquals(x.sequence(), y.sequence());
                assertArrayEquals(x.value(), y.value());
                x.next();
                y.next();
            }
            assertFalse(y.isValid());
            // Backward: the skiplist's descending views and the flat array's index must agree entry by
            // entry, and with the forward order reversed.
            List<String> forward = new ArrayList<>();
            for (x.seekToFirst(); x.isValid(); x.next()) {
                forward.add(Bytes.toHex(x.key()) + "@" + x.sequence());
            }
            List<String> backward = new ArrayList<>();
            x.seekToLast();
            for (y.seekToLast(); y.isValid(); y.prev()) {
                assertTrue(x.isValid(), "seed=" + seed);
                assertArrayEquals(x.key(), y.key());
                assertEquals(x.sequence(), y.sequence());
                backward.add(0, Bytes.toHex(y.key()) + "@" + y.sequence());
                x.prev();
            }
            assertFalse(x.isValid());
            assertEquals(forward, backward, "seed=" + seed);
            for (int i = 0; i < 300; i++) {
                byte[] k = key(rnd.nextInt(410));
                long seq = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1500);
                x.seekForPrev(k, seq);
                y.seekForPrev(k, seq);
                for (int step = 0; step < 5 && x.isValid(); step++) {
                    assertTrue(y.isValid(), "seed=" + seed);
                    assertArrayEquals(x.key(), y.key(), "seed=" + seed);
                    assertEquals(x.sequence(), y.sequence(), "seed=" + seed);
                    assertTrue(InternalKeys.compare(x.key(), x.sequence(), k, seq) <= 0 || step > 0, "seed=" + seed);
                    if (rnd.nextBoolean()) {
                        x.next();
                        y.next();
                    } else {
                        x.prev();
                        y.prev();
                    }
                }
                assertEquals(x.isValid(), y.isValid(), "seed=" + seed);
            }
        }
    }

    /**
     * HBase's CellChunkMap allocated a cell object on every index probe. A flat-segment lookup that
     * misses allocates nothing, and one that hits allocates only the value it returns from a chunk.
     */
    @Test
    void cellChunkMapProbeAllocatesNothing() {
        ChunkPool pool = new ChunkPool(1 << 16, 16);
        MutableSegment skip = sample(new Random(1), 2000, Kind.MSLAB, pool);
        FlatSegment flat = SegmentBuilder.flatten(skip);
        ThreadAllocations.assumeCounted();
        Lookup lk = new Lookup();
        byte[][] probes = new byte[4000][];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = key(2 * i + 1); // odd keys: all missing
        }
        for (int round = 0; round < 3; round++) { // warm up so the JIT has settled
            for (byte[] p : probes) {
                flat.get(p, 1000, lk);
            }
        }
        long before = ThreadAllocations.allocated();
        for (int round = 0; round < 50; round++) {
            for (byte[] p : probes) {
                flat.get(p, 1000, lk);
            }
        }
        long allocated = ThreadAllocations.allocated() - before;
        assertTrue(allocated < 50_000, "200000 missing probes allocated " + allocated + " bytes");
    }
}
