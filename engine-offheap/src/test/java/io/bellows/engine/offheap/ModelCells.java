package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.memstore.spi.MutableSegment;
import io.bellows.engine.internal.memstore.spi.Segment;
import io.bellows.engine.internal.memstore.spi.SegmentMemory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/** Test cells and their model: a TreeSet in internal-key order, filled alongside the segments. */
final class ModelCells {
    /** One MemStore entry as the model holds it; {@code value} null exactly for a tombstone. */
    record Entry(byte[] key, long seq, int kind, byte[] value) {
        long dataSize() {
            return key.length + (value == null ? 0 : value.length);
        }

        /** By content: the arrays' bytes, not their identity. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && seq == e.seq && kind == e.kind && Arrays.equals(key, e.key)
                    && Arrays.equals(value, e.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(key) * 31 + Long.hashCode(seq);
        }

        @Override
        public String toString() {
            return Arrays.toString(key) + "@" + seq + (kind == InternalKeys.KIND_PUT ? "" : " DELETE");
        }
    }

    /** Internal-key order: user key ascending (unsigned), sequence descending. */
    static final Comparator<Entry> ORDER = (a, b) -> {
        int c = Arrays.compareUnsigned(a.key, b.key);
        return c != 0 ? c : Long.compare(b.seq, a.seq);
    };

    private final Random rnd;
    private final List<byte[]> keys = new ArrayList<>();
    /** Record size above which a cell goes to a jumbo chunk: larger values are drawn now and then. */
    private final int jumboValue;
    private long seq;

    /**
     * @param distinctKeys user keys to draw from: fewer keys, more versions per key
     * @param jumboValue a value length that makes a jumbo record
     */
    ModelCells(Random rnd, int distinctKeys, int jumboValue) {
        this.rnd = rnd;
        this.jumboValue = jumboValue;
        Set<ByteBuffer> seen = new HashSet<>();
        byte[][] prefixes = {{}, {0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, (byte) 0x80}, {(byte) 0xff, 0}};
        while (keys.size() < distinctKeys) {
            byte[] prefix = prefixes[rnd.nextInt(prefixes.length)];
            byte[] k = Arrays.copyOf(prefix, prefix.length + rnd.nextInt(20));
            for (int i = prefix.length; i < k.length; i++) {
                k[i] = (byte) rnd.nextInt(rnd.nextBoolean() ? 4 : 256);
            }
            if (seen.add(ByteBuffer.wrap(k))) {
                keys.add(k);
            }
        }
    }

    /** Keys this generator never draws, around and between the drawn ones. */
    List<byte[]> missingKeys(int n) {
        Set<ByteBuffer> present = new HashSet<>();
        keys.forEach(k -> present.add(ByteBuffer.wrap(k)));
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
        while (out.size() < n) {
            byte[] base = keys.get(rnd.nextInt(keys.size()));
            byte[] k = rnd.nextBoolean() ? Arrays.copyOf(base, base.length + 1) : base.clone();
            if (k.length > 0) {
                k[k.length - 1] += (byte) (1 + rnd.nextInt(3));
            }
            if (!present.contains(ByteBuffer.wrap(k))) {
                out.add(k);
            }
        }
        return out;
    }

    List<byte[]> keys() {
        return keys;
    }

    long lastSequence() {
        return seq;
    }

    /** Writes {@code n} random entries, with fresh increasing sequences, into {@code s} and {@code model}. */
    void fill(MutableSegment s, int n, TreeSet<Entry> model) {
        for (int i = 0; i < n; i++) {
            Entry e = next();
            s.add(e.key, e.seq, e.kind, e.value);
            model.add(e);
        }
    }

    Entry next() {
        byte[] key = keys.get(rnd.nextInt(keys.size()));
        int r = rnd.nextInt(100);
        seq += 1 + rnd.nextInt(3);
        if (r < 10) {
            return new Entry(key, seq, InternalKeys.KIND_DELETE, null);
        }
        int len = r < 20 ? 0 : r < 22 ? jumboValue + rnd.nextInt(jumboValue) : rnd.nextInt(100);
        byte[] v = new byte[len];
        rnd.nextBytes(v);
        return new Entry(key, seq, InternalKeys.KIND_PUT, v);
    }

    /** The newest entry of {@code key} at or below {@code seq}, or null. */
    static Entry visible(TreeSet<Entry> model, byte[] key, long seq) {
        Entry e = model.ceiling(new Entry(key, seq, 0, null));
        return e != null && Arrays.equals(e.key, key) ? e : null;
    }

    /** Asserts that {@code it}, from where it stands, yields exactly {@code expected} (in order). */
    static void assertYields(Iterable<Entry> expected, InternalIterator it, String context) {
        int i = 0;
        for (Entry e : expected) {
            assertTrue(it.isValid(), context + ": ends after " + i + " entries, expected " + e);
            assertEquals(e, new Entry(it.key(), it.sequence(), it.kind(), it.value()), context + ": entry " + i);
            i++;
            it.next();
        }
        assertFalse(it.isValid(), context + ": more entries than the model's " + i);
    }

    /** Asserts that {@code s} holds exactly {@code model}, in internal order. */
    static void assertHolds(TreeSet<Entry> model, Segment s, String context) {
        assertEquals(model.size(), s.entries(), context + ": entries");
        assertEquals(model.stream().mapToLong(Entry::dataSize).sum(), s.dataSize(), context + ": dataSize");
        assertEquals(model.isEmpty() ? Long.MAX_VALUE : model.stream().mapToLong(Entry::seq).min().getAsLong(),
                s.minSequence(), context + ": minSequence");
        assertEquals(model.stream().mapToLong(Entry::seq).max().orElse(0), s.maxSequence(), context + ": maxSequence");
        try (InternalIterator it = s.iterator()) {
            it.seekToFirst();
            assertYields(model, it, context);
        }
    }

    static long uniqueKeys(TreeSet<Entry> model) {
        return model.stream().map(e -> ByteBuffer.wrap(e.key)).distinct().count();
    }

    /** Drops the caller's reference a layout hands out with each segment. */
    static void release(Segment s) {
        for (SegmentMemory m : s.memory()) {
            m.release();
        }
    }
}
