package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.Entries.Entry;
import io.bellows.engine.internal.util.Coding;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BlockTest {
    private static Block build(List<Entry> entries, int restartInterval) {
        BlockBuilder b = new BlockBuilder(restartInterval);
        for (Entry e : entries) {
            b.add(e.key(), InternalKeys.trailer(e.seq(), e.kind()), e.value(), 0, e.value().length);
        }
        int n = b.finish();
        return new Block(Arrays.copyOf(b.buffer(), n), n, Entries.PATH, 1000);
    }

    private static void assertAt(BlockIterator it, Entry e) {
        assertTrue(it.isValid(), "expected " + e);
        assertArrayEquals(e.key(), it.userKey());
        assertEquals(e.seq(), it.sequence());
        assertEquals(e.kind(), it.kind());
        assertArrayEquals(e.value(), it.value());
    }

    @Test
    void roundTripWithManyRestartIntervals() {
        Random rnd = new Random(TestSeeds.seed("BlockTest.roundTripWithManyRestartIntervals"));
        for (int interval : new int[] {1, 2, 3, 5, 16, 100, 100_000}) {
            List<Entry> entries = Entries.random(rnd, 500, 40);
            Block block = build(entries, interval);
            BlockIterator it = block.iterator();
            it.seekToFirst();
            for (Entry e : entries) {
                assertAt(it, e);
                it.next();
            }
            assertFalse(it.isValid());
            for (Entry e : entries) {
                it.seek(e.key(), e.seq());
                assertAt(it, e);
            }
            for (int i = 0; i < 2000; i++) {
                byte[] k = Entries.probeKey(rnd, entries);
                long s = Entries.probeSeq(rnd, entries);
                int expected = Entries.ceiling(entries, k, s);
                it.seek(k, s);
                if (expected == entries.size()) {
                    assertFalse(it.isValid());
                } else {
                    assertAt(it, entries.get(expected));
                    if (expected + 1 < entries.size()) {
                        it.next();
                        assertAt(it, entries.get(expected + 1));
                    }
                }
            }
        }
    }

    /**
     * Backward over every restart interval (prev re-decodes from the restart point before the entry),
     * seekForPrev at and between entries, and turns between next and prev at random.
     */
    @Test
    void prevAndSeekForPrevAcrossRestartIntervals() {
        Random rnd = new Random(TestSeeds.seed("BlockTest.prevAndSeekForPrevAcrossRestartIntervals"));
        for (int interval : new int[] {1, 2, 3, 5, 16, 100_000}) {
            List<Entry> entries = Entries.random(rnd, 300, 20);
            BlockIterator it = build(entries, interval).iterator();
            it.seekToLast();
            for (int i = entries.size() - 1; i >= 0; i--) {
                assertAt(it, entries.get(i));
                it.prev();
            }
            assertFalse(it.isValid(), "prev from the first entry");
            for (Entry e : entries) {
                it.seekForPrev(e.key(), e.seq());
                assertAt(it, e);
            }
            for (int i = 0; i < 1000; i++) {
                byte[] k = Entries.probeKey(rnd, entries);
                long s = Entries.probeSeq(rnd, entries);
                int at = Entries.floor(entries, k, s);
                it.seekForPrev(k, s);
                for (int step = 0; step < 6 && at >= 0 && at < entries.size(); step++) {
                    assertAt(it, entries.get(at));
                    if (rnd.nextBoolean()) {
                        it.next();
                        at++;
                    } else {
                        it.prev();
                        at--;
                    }
                }
                if (at < 0 || at >= entries.size()) {
                    assertFalse(it.isValid());
                }
            }
        }
    }

    /** The worked example of docs/formats/sstable.md, "Blocks". */
    @Test
    void encodingMatchesTheSpecExample() {
        BlockBuilder b = new BlockBuilder(2);
        b.add("apple".getBytes(), InternalKeys.trailer(7, InternalKeys.KIND_DELETE), new byte[0], 0, 0);
        b.add("apple".getBytes(), InternalKeys.trailer(5, InternalKeys.KIND_PUT), "red".getBytes(), 0, 3);
        b.add("apricot".getBytes(), InternalKeys.trailer(3, InternalKeys.KIND_PUT), "x".getBytes(), 0, 1);
        int n = b.finish();
        String expected = "000d00" + "6170706c65" + "0007000000000000"
                + "050803" + "0105000000000000" + "726564"
                + "000f01" + "61707269636f74" + "0103000000000000" + "78"
                + "00000000" + "1e000000" + "02000000";
        assertEquals(expected, HexFormat.of().formatHex(b.buffer(), 0, n));
    }

    @Test
    void rejectsBadRestartArrays() {
        Block good = build(List.of(new Entry("k".getBytes(), 1, InternalKeys.KIND_PUT, "v".getBytes())), 16);
        int n = good.data.length;

        byte[] count = good.data.clone();
        Coding.putInt(count, n - 4, 1000);
        assertThrows(CorruptionException.class, () -> new Block(count, n, Entries.PATH, 0));

        byte[] zeroCount = good.data.clone();
        Coding.putInt(zeroCount, n - 4, 0);
        assertThrows(CorruptionException.class, () -> new Block(zeroCount, n, Entries.PATH, 0));

        byte[] restart = good.data.clone();
        Coding.putInt(restart, n - 8, 3);
        assertThrows(CorruptionException.class, () -> new Block(restart, n, Entries.PATH, 0));

        assertThrows(CorruptionException.class, () -> new Block(new byte[4], 4, Entries.PATH, 0));
        byte[] empty = new byte[8];
        Coding.putInt(empty, 4, 1);
        assertThrows(CorruptionException.class, () -> new Block(empty, 8, Entries.PATH, 0));
    }

    @Test
    void malformedEntriesRaiseCorruptionNamingTheOffset() {
        Block good = build(List.of(new Entry("key".getBytes(), 1, InternalKeys.KIND_PUT, "value".getBytes()),
                new Entry("kez".getBytes(), 1, InternalKeys.KIND_PUT, "v".getBytes())), 16);
        int n = good.data.length;

        byte[] overrun = good.data.clone();
        overrun[2] = 100; // value length past the entries
        CorruptionException e = assertThrows(CorruptionException.class, () -> {
            BlockIterator it = new Block(overrun, n, Entries.PATH, 1000).iterator();
            it.seekToFirst();
        });
        assertEquals(1000, e.offset());
        assertEquals(Entries.PATH, e.file());

        byte[] shared = good.data.clone();
        shared[0] = 3; // the first entry shares a prefix with nothing
        assertThrows(CorruptionException.class, () -> new Block(shared, n, Entries.PATH, 0).iterator().seekToFirst());
        assertThrows(CorruptionException.class,
                () -> new Block(shared, n, Entries.PATH, 0).iterator().seek("a".getBytes(), 0));

        byte[] kind = good.data.clone();
        kind[3 + 3] = 9; // first byte of the first key's trailer is the kind
        assertThrows(CorruptionException.class, () -> new Block(kind, n, Entries.PATH, 0).iterator().seekToFirst());

        byte[] shortKey = good.data.clone();
        shortKey[1] = 4; // a key shorter than its trailer
        assertThrows(CorruptionException.class, () -> new Block(shortKey, n, Entries.PATH, 0).iterator().seekToFirst());

        byte[] varint = good.data.clone();
        Arrays.fill(varint, 0, 5, (byte) 0xff);
        assertThrows(CorruptionException.class, () -> new Block(varint, n, Entries.PATH, 0).iterator().seekToFirst());
    }

    @Test
    void keysAndValuesStayUnchangedAfterTheIteratorMoves() {
        List<Entry> entries = Entries.random(new Random(7), 200, 5);
        BlockIterator it = build(entries, 4).iterator();
        it.seekToFirst();
        byte[][] keys = new byte[entries.size()][];
        byte[][] values = new byte[entries.size()][];
        for (int i = 0; i < entries.size(); i++, it.next()) {
            keys[i] = it.userKey();
            values[i] = it.value();
        }
        for (int i = 0; i < entries.size(); i++) {
            assertArrayEquals(entries.get(i).key(), keys[i]);
            assertArrayEquals(entries.get(i).value(), values[i]);
        }
    }

    /**
     * An index entry's handle decoded in place (handleOffset, handleSize) agrees with the decoded
     * handle, and a value the two varints do not fill exactly, or a size past the block limit, is refused.
     */
    @Test
    void handlesDecodeInPlaceAsWhole() {
        Random rnd = new Random(TestSeeds.seed("BlockTest.handlesDecodeInPlaceAsWhole"));
        BlockBuilder b = new BlockBuilder(TableFormat.INDEX_RESTART_INTERVAL);
        long[] offsets = new long[200];
        int[] sizes = new int[200];
        byte[] h = new byte[BlockHandle.MAX_VARINT_LENGTH];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = (rnd.nextLong() >>> 1) >>> rnd.nextInt(63);
            sizes[i] = rnd.nextInt(TableFormat.MAX_BLOCK_LENGTH + 1) >>> rnd.nextInt(31);
            int n = BlockHandle.encodeVarint(offsets[i], sizes[i], h, 0);
            b.add(new byte[] {(byte) (i >> 8), (byte) i}, InternalKeys.trailer(1, InternalKeys.KIND_PUT), h, 0, n);
        }
        int n = b.finish();
        BlockIterator it = new Block(Arrays.copyOf(b.buffer(), n), n, Entries.PATH, 0).iterator();
        it.seekToFirst();
        for (int i = 0; i < offsets.length; i++, it.next()) {
            assertEquals(new BlockHandle(offsets[i], sizes[i]), it.handle());
            assertEquals(offsets[i], it.handleOffset());
            assertEquals(sizes[i], it.handleSize());
        }
        byte[][] malformed = {
            {5, 7, 0}, // a byte after the size
            {5}, // no size
            {5, (byte) 0x80}, // the size's varint unfinished
            {5, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x7f}, // a size past the block limit
        };
        for (byte[] value : malformed) {
            BlockBuilder bad = new BlockBuilder(1);
            bad.add(new byte[] {1}, InternalKeys.trailer(1, InternalKeys.KIND_PUT), value, 0, value.length);
            int m = bad.finish();
            BlockIterator at = new Block(Arrays.copyOf(bad.buffer(), m), m, Entries.PATH, 0).iterator();
            at.seekToFirst();
            assertThrows(CorruptionException.class, at::handleSize, HexFormat.of().formatHex(value));
            assertThrows(CorruptionException.class, at::handle, HexFormat.of().formatHex(value));
        }
    }
}
