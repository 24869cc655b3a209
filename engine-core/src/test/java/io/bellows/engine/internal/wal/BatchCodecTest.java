package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
    private static final Path PATH = Path.of("db", "000009.log");

    /** One decoded op. */
    private record Op(long sequence, int kind, byte[] key, byte[] value) {
        @Override
        public String toString() {
            return sequence + ":" + kind + ":" + new String(key) + "=" + (value == null ? null : new String(value));
        }
    }

    @Test
    void workedExampleOfTheSpec() {
        WriteBatch batch = new WriteBatch().put(bytes("k"), bytes("v1")).delete(bytes("a"));
        byte[] record = BatchCodec.encode(5, List.of(batch));
        byte[] expected = {5, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 'k', 2, 'v', '1', 0, 1, 'a'};
        assertArrayEquals(expected, record);
        assertEquals(2, BatchCodec.count(record));
        assertEquals(5, BatchCodec.firstSequence(record));
        List<Op> ops = decode(record);
        assertEquals("[5:1:k=v1, 6:0:a=null]", ops.toString());
        // The batch is that record already: logged alone, its own buffer is appended as it is.
        byte[] own = BatchAccess.record(batch, 5);
        assertArrayEquals(expected, Arrays.copyOf(own, BatchAccess.recordLength(batch)));
        assertEquals("[5:1:k=v1, 6:0:a=null]", inPlace(own, BatchAccess.recordLength(batch), 5).toString());
    }

    @Test
    void batchesOfAGroupGetConsecutiveSequences() {
        WriteBatch a = new WriteBatch().put(bytes("a1"), bytes("x")).put(bytes("a2"), new byte[0]);
        WriteBatch empty = new WriteBatch();
        WriteBatch b = new WriteBatch().delete(bytes("b1")).put(new byte[0], bytes("empty key"));
        byte[] record = BatchCodec.encode(1000, List.of(a, empty, b));
        assertEquals(BatchCodec.HEADER_LENGTH + BatchAccess.encodedLength(a) + BatchAccess.encodedLength(b), record.length);
        assertEquals("[1000:1:a1=x, 1001:1:a2=, 1002:0:b1=null, 1003:1:=empty key]", decode(record).toString());
    }

    @Test
    void emptyGroupEncodesNoOps() {
        byte[] record = BatchCodec.encode(7, List.of());
        assertEquals(BatchCodec.HEADER_LENGTH, record.length);
        assertEquals(0, BatchCodec.count(record));
        assertTrue(decode(record).isEmpty());
    }

    @Test
    void randomRoundTrips() {
        long seed = TestSeeds.seed("BatchCodecTest.randomRoundTrips");
        Random rnd = new Random(seed);
        for (int trial = 0; trial < 200; trial++) {
            List<WriteBatch> batches = new ArrayList<>();
            List<Op> expected = new ArrayList<>();
            long first = rnd.nextInt(4) == 0 ? InternalKeys.MAX_SEQUENCE - 10_000 : rnd.nextInt(1 << 30);
            long seq = first;
            for (int b = rnd.nextInt(4); b > 0; b--) {
                WriteBatch batch = new WriteBatch();
                for (int i = rnd.nextInt(20); i > 0; i--) {
                    byte[] key = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(InternalKeys.MAX_KEY_LENGTH + 1) : 8];
                    rnd.nextBytes(key);
                    if (rnd.nextInt(3) == 0) {
                        batch.delete(key);
                        expected.add(new Op(seq++, InternalKeys.KIND_DELETE, key, null));
                    } else {
                        byte[] value = new byte[rnd.nextInt(300)];
                        rnd.nextBytes(value);
                        batch.put(key, value);
                        expected.add(new Op(seq++, InternalKeys.KIND_PUT, key, value));
                    }
                }
                batches.add(batch);
            }
            byte[] record = BatchCodec.encode(first, batches);
            assertSameOps(decode(record), inPlace(record, record.length, first));
            byte[] reused = new byte[record.length + rnd.nextInt(100)];
            rnd.nextBytes(reused);
            BatchCodec.encodeTo(reused, first, batches);
            assertArrayEquals(record, Arrays.copyOf(reused, record.length));
            if (batches.size() == 1) {
                WriteBatch alone = batches.get(0);
                assertArrayEquals(record, Arrays.copyOf(BatchAccess.record(alone, first), BatchAccess.recordLength(alone)));
            }
            assertEquals(first, BatchCodec.firstSequence(record));
            assertEquals(expected.size(), BatchCodec.count(record));
            List<Op> got = decode(record);
            assertEquals(expected.size(), got.size());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(expected.get(i).sequence(), got.get(i).sequence());
                assertEquals(expected.get(i).kind(), got.get(i).kind());
                assertArrayEquals(expected.get(i).key(), got.get(i).key());
                assertArrayEquals(expected.get(i).value(), got.get(i).value());
            }
        }
    }

    @Test
    void encodeRefusesSequencesPastTheLimit() {
        WriteBatch two = new WriteBatch().delete(bytes("a")).delete(bytes("b"));
        BatchCodec.encode(InternalKeys.MAX_SEQUENCE - 1, List.of(two));
        assertThrows(IllegalArgumentException.class, () -> BatchCodec.encode(InternalKeys.MAX_SEQUENCE, List.of(two)));
        assertThrows(IllegalArgumentException.class, () -> BatchCodec.encode(-1, List.of(two)));
    }

    @Test
    void malformedRecordsAreCorruptionAndVisitNothing() {
        byte[] good = BatchCodec.encode(42, List.of(
                new WriteBatch().put(bytes("key"), bytes("value")).delete(bytes("gone")).put(bytes("k2"), bytes("v2"))));
        assertEquals(3, decode(good).size());

        assertCorrupt(Arrays.copyOf(good, 11), "shorter than");
        assertCorrupt(Arrays.copyOf(good, good.length - 1), "runs past the end");
        assertCorrupt(Arrays.copyOf(good, good.length + 1), "bytes after");
        assertCorrupt(withCount(good, 4), "ends after 3 of 4");
        assertCorrupt(withCount(good, 2), "bytes after its 2 ops");
        assertCorrupt(withCount(good, -1), "ends after 3 of 4294967295");

        byte[] badKind = good.clone();
        int secondOp = BatchCodec.HEADER_LENGTH + 1 + 1 + 3 + 1 + 5;
        badKind[secondOp] = 7;
        assertCorrupt(badKind, "bad kind 7");

        byte[] putBecomesDelete = good.clone();
        putBecomesDelete[BatchCodec.HEADER_LENGTH] = (byte) InternalKeys.KIND_DELETE;
        assertCorrupt(putBecomesDelete, null);

        byte[] badVarint = good.clone();
        Arrays.fill(badVarint, BatchCodec.HEADER_LENGTH + 1, badVarint.length, (byte) 0xff);
        assertCorrupt(badVarint, "bad key length");

        byte[] sequenceOverflow = good.clone();
        Coding.putLong(sequenceOverflow, 0, InternalKeys.MAX_SEQUENCE - 1);
        assertCorrupt(sequenceOverflow, "exceed the limit");
    }

    @Test
    void keyLongerThanTheLimitIsCorruption() {
        int tooLong = InternalKeys.MAX_KEY_LENGTH + 1;
        byte[] record = new byte[BatchCodec.HEADER_LENGTH + 1 + 3 + tooLong];
        Coding.putInt(record, 8, 1);
        record[BatchCodec.HEADER_LENGTH] = (byte) InternalKeys.KIND_DELETE;
        Coding.putVarInt(record, BatchCodec.HEADER_LENGTH + 1, tooLong);
        assertCorrupt(record, "above the limit of 65535");
    }

    /** Every truncation and every single-byte change of a record either decodes fully or throws before visiting. */
    @Test
    void damagedRecordsAreNeverHalfApplied() {
        long seed = TestSeeds.seed("BatchCodecTest.damagedRecordsAreNeverHalfApplied");
        Random rnd = new Random(seed);
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 20; i++) {
            batch.put(bytes("key" + i), bytes("value" + i)).delete(bytes("del" + i));
        }
        byte[] good = BatchCodec.encode(1, List.of(batch));
        for (int cut = 0; cut < good.length; cut++) {
            assertThrows(CorruptionException.class, decodeAll(Arrays.copyOf(good, cut)));
        }
        for (int trial = 0; trial < 2000; trial++) {
            byte[] damaged = good.clone();
            damaged[rnd.nextInt(damaged.length)] = (byte) rnd.nextInt();
            List<Op> visited = new ArrayList<>();
            try {
                BatchCodec.decode(damaged, PATH, 0, (s, k, key, v) -> visited.add(new Op(s, k, key, v)));
                assertEquals(BatchCodec.count(damaged), visited.size());
            } catch (CorruptionException e) {
                assertTrue(visited.isEmpty(), "visited " + visited.size() + " ops of a damaged record");
            }
        }
    }

    private static org.junit.jupiter.api.function.Executable decodeAll(byte[] record) {
        return () -> BatchCodec.decode(record, PATH, 0, (s, k, key, v) -> {
            throw new AssertionError("visited a damaged record");
        });
    }

    private static void assertCorrupt(byte[] record, String message) {
        List<Op> visited = new ArrayList<>();
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> BatchCodec.decode(record, PATH, 1234, (s, k, key, v) -> visited.add(new Op(s, k, key, v))));
        assertTrue(visited.isEmpty(), "visited ops of a damaged record");
        assertEquals(PATH, e.file());
        assertEquals(1234, e.offset());
        if (message != null) {
            assertTrue(e.getMessage().contains(message), e.getMessage());
        }
    }

    private static byte[] withCount(byte[] record, int count) {
        byte[] b = record.clone();
        Coding.putInt(b, 8, count);
        return b;
    }

    /** The ops of {@code record[0, length)} as {@link BatchCodec#forEachOp} reads them in place, copied out. */
    private static List<Op> inPlace(byte[] record, int length, long first) {
        List<Op> ops = new ArrayList<>();
        long end = BatchCodec.forEachOp(record, BatchCodec.HEADER_LENGTH, length, first,
                (s, k, buf, keyOff, keyLen, valueOff, valueLen) -> ops.add(new Op(s, k,
                        Arrays.copyOfRange(buf, keyOff, keyOff + keyLen),
                        k == InternalKeys.KIND_PUT ? Arrays.copyOfRange(buf, valueOff, valueOff + valueLen) : null)));
        assertEquals(first + ops.size(), end);
        return ops;
    }

    private static void assertSameOps(List<Op> expected, List<Op> got) {
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(expected.get(i).sequence(), got.get(i).sequence());
            assertEquals(expected.get(i).kind(), got.get(i).kind());
            assertArrayEquals(expected.get(i).key(), got.get(i).key());
            assertArrayEquals(expected.get(i).value(), got.get(i).value());
        }
    }

    private static List<Op> decode(byte[] record) {
        List<Op> ops = new ArrayList<>();
        BatchCodec.decode(record, PATH, 16, (s, k, key, v) -> {
            if (k == InternalKeys.KIND_DELETE) {
                assertNull(v);
            }
            ops.add(new Op(s, k, key, v));
        });
        return ops;
    }
}
