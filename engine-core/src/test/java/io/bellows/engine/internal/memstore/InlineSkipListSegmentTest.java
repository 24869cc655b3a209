package io.bellows.engine.internal.memstore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.util.Bytes;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The inline skiplist against a TreeMap of internal keys: point lookups at any sequence, forward and
 * backward iteration with direction changes, views against copies, nodes too large for a chunk, and
 * readers walking the list while its one writer inserts.
 */
class InlineSkipListSegmentTest {
    /** An internal key of the model: user key ascending, sequence descending, as the segment orders. */
    private record Ikey(byte[] key, long seq) {}

    private static final Comparator<Ikey> ORDER = (a, b) -> {
        int c = Bytes.compare(a.key, 0, a.key.length, b.key, 0, b.key.length);
        return c != 0 ? c : Long.compare(b.seq, a.seq);
    };

    /**
     * Short keys, keys that differ only past their first 16 bytes (the prefix a node holds), keys that end
     * in zero bytes (which the zero-padded prefixes do not tell from shorter ones), and keys of high bytes.
     */
    private static byte[] key(Random rnd, int keys) {
        int n = rnd.nextInt(keys);
        switch (rnd.nextInt(4)) {
            case 0:
                return ("k" + n + (rnd.nextBoolean() ? "" : "/x")).getBytes();
            case 1:
                return ("shared-prefix-of-24-byte" + n).getBytes();
            case 2:
                byte[] base = ("z" + n).getBytes();
                return Arrays.copyOf(base, base.length + rnd.nextInt(3) + (rnd.nextBoolean() ? 0 : 13));
            default:
                // Bytes of 0x80 and above, which a signed comparison would order before 0x00-0x7f.
                byte[] high = new byte[1 + rnd.nextInt(20)];
                for (int i = 0; i < high.length; i++) {
                    high[i] = (byte) (i == 0 ? 0x80 + n % 0x80 : (n >>> (i % 4)) * 37);
                }
                return high;
        }
    }

    private static byte[] value(byte[] key, long seq, int length) {
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = (byte) (key[i % key.length] + seq + i);
        }
        return v;
    }

    @Test
    void matchesTheModel() {
        long seed = TestSeeds.seed("InlineSkipListSegmentTest.matchesTheModel");
        Random rnd = new Random(seed);
        // 4 KiB chunks: nodes over 512 bytes get arrays of their own.
        InlineSkipListSegment s = new InlineSkipListSegment(new NodeArena(new ChunkPool(4096, 64)));
        TreeMap<Ikey, byte[]> model = new TreeMap<>(ORDER);
        long seq = 0;
        long bytes = 0;
        for (int i = 0; i < 6000; i++) {
            byte[] k = key(rnd, 800);
            seq += 1 + rnd.nextInt(3);
            boolean tombstone = rnd.nextInt(6) == 0;
            byte[] v = tombstone ? null : value(k, seq, rnd.nextInt(20) == 0 ? 600 + rnd.nextInt(3000) : rnd.nextInt(60));
            s.add(k, seq, tombstone ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT, v);
            model.put(new Ikey(k, seq), v);
            bytes += k.length + (v == null ? 0 : v.length);
        }
        s.add(model.firstKey().key, model.firstKey().seq, InternalKeys.KIND_PUT, new byte[1]);
        assertEquals(model.size(), s.entries(), "seed=" + seed + ": a repeated (key, sequence) is not added twice");
        assertEquals(bytes, s.dataSize());
        assertTrue(s.heapSize() > bytes, "nodes weigh their bytes and more");

        Lookup out = new Lookup();
        for (int i = 0; i < 4000; i++) {
            byte[] k = key(rnd, 900);
            long at = rnd.nextInt((int) seq + 10);
            Map.Entry<Ikey, byte[]> e = model.ceilingEntry(new Ikey(k, at));
            boolean expected = e != null && Arrays.equals(e.getKey().key, k);
            assertEquals(expected, s.get(k, at, out), "seed=" + seed);
            if (expected) {
                assertEquals(e.getKey().seq, out.sequence, "seed=" + seed);
                assertArrayEquals(e.getValue(), out.copyValue(), "seed=" + seed);
            }
        }

        List<Map.Entry<Ikey, byte[]>> all = new ArrayList<>(model.entrySet());
        try (InternalIterator it = s.iterator()) {
            it.seekToFirst();
            for (Map.Entry<Ikey, byte[]> e : all) {
                assertAt(it, e, seed);
                it.next();
            }
            assertFalse(it.isValid());
            it.seekToLast();
            for (int i = all.size() - 1; i >= 0; i--) {
                assertAt(it, all.get(i), seed);
                it.prev();
            }
            assertFalse(it.isValid());
            // Random seeks both ways, then a few steps with direction changes.
            for (int round = 0; round < 500; round++) {
                byte[] k = key(rnd, 900);
                long at = rnd.nextInt((int) seq + 10);
                Ikey probe = new Ikey(k, at);
                boolean forward = rnd.nextBoolean();
                Ikey pos;
                if (forward) {
                    it.seek(k, at);
                    pos = model.ceilingKey(probe);
                } else {
                    it.seekForPrev(k, at);
                    pos = model.floorKey(probe);
                }
                for (int step = 0; step < 8; step++) {
                    if (pos == null) {
                        assertFalse(it.isValid(), "seed=" + seed);
                        break;
                    }
                    assertAt(it, new AbstractMap.SimpleEntry<>(pos, model.get(pos)), seed);
                    if (rnd.nextBoolean()) {
                        it.next();
                        pos = model.higherKey(pos);
                    } else {
                        it.prev();
                        pos = model.lowerKey(pos);
                    }
                }
            }
        }
        List<Cell> cells = new ArrayList<>();
        s.cells().forEachRemaining(cells::add);
        assertEquals(all.size(), cells.size());
        for (int i = 0; i < cells.size(); i++) {
            assertArrayEquals(all.get(i).getKey().key, cells.get(i).key(), "seed=" + seed);
            assertEquals(all.get(i).getKey().seq, cells.get(i).sequence);
            assertArrayEquals(all.get(i).getValue(), cells.get(i).value(), "seed=" + seed);
        }
    }

    private static void assertAt(InternalIterator it, Map.Entry<Ikey, byte[]> e, long seed) {
        assertTrue(it.isValid(), "seed=" + seed);
        assertArrayEquals(e.getKey().key, it.key(), "seed=" + seed);
        assertTrue(it.keySlice().contentEquals(e.getKey().key), "seed=" + seed);
        assertEquals(e.getKey().seq, it.sequence(), "seed=" + seed);
        if (e.getValue() == null) {
            assertEquals(InternalKeys.KIND_DELETE, it.kind(), "seed=" + seed);
            assertNull(it.value());
            assertEquals(0, it.valueSlice().length());
        } else {
            assertEquals(InternalKeys.KIND_PUT, it.kind(), "seed=" + seed);
            assertArrayEquals(e.getValue(), it.value(), "seed=" + seed);
            assertTrue(it.valueSlice().contentEquals(e.getValue()), "seed=" + seed);
        }
    }

    @Test
    void emptyListHasNothing() {
        InlineSkipListSegment s = new InlineSkipListSegment(new NodeArena(new ChunkPool(4096, 4)));
        assertFalse(s.get("a".getBytes(), InternalKeys.MAX_SEQUENCE, new Lookup()));
        try (InternalIterator it = s.iterator()) {
            it.seekToFirst();
            assertFalse(it.isValid());
            it.seekToLast();
            assertFalse(it.isValid());
            it.seek("a".getBytes(), 5);
            assertFalse(it.isValid());
            it.seekForPrev("a".getBytes(), 5);
            assertFalse(it.isValid());
        }
        assertFalse(s.cells().hasNext());
        assertEquals(0, s.entries());
    }

    /**
     * Readers walk and search the list while the writer inserts: every node a reader reaches is complete
     * (its value is the function of its key and sequence the writer stored) and the walk is in order.
     */
    @Test
    void readersSeeCompleteNodesInOrderWhileTheWriterInserts() throws InterruptedException {
        long seed = TestSeeds.seed("InlineSkipListSegmentTest.readersSeeCompleteNodesInOrderWhileTheWriterInserts");
        InlineSkipListSegment s = new InlineSkipListSegment(new NodeArena(new ChunkPool(1 << 16, 256)));
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            long readerSeed = seed + r;
            Thread t = new Thread(() -> {
                Random rnd = new Random(readerSeed);
                Lookup out = new Lookup();
                try {
                    while (!done.get()) {
                        try (InternalIterator it = s.iterator()) {
                            byte[] prevKey = null;
                            long prevSeq = 0;
                            int n = 0;
                            for (it.seekToFirst(); it.isValid() && n < 2000; it.next(), n++) {
                                byte[] k = it.key();
                                long q = it.sequence();
                                assertArrayEquals(value(k, q, 24), it.value(), "seed=" + seed);
                                if (prevKey != null) {
                                    int c = Bytes.compare(prevKey, 0, prevKey.length, k, 0, k.length);
                                    assertTrue(c < 0 || (c == 0 && prevSeq > q), "seed=" + seed + ": out of order");
                                }
                                prevKey = k;
                                prevSeq = q;
                            }
                        }
                        byte[] k = key(rnd, 5000);
                        if (s.get(k, InternalKeys.MAX_SEQUENCE, out)) {
                            assertArrayEquals(value(k, out.sequence, 24), out.copyValue(), "seed=" + seed);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            readers.add(t);
            t.start();
        }
        Random rnd = new Random(seed);
        for (long q = 1; q <= 60_000 && failure.get() == null; q++) {
            byte[] k = key(rnd, 5000);
            s.add(k, q, InternalKeys.KIND_PUT, value(k, q, 24));
        }
        done.set(true);
        for (Thread t : readers) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed=" + seed, failure.get());
        }
        assertEquals(60_000, s.entries());
    }
}
