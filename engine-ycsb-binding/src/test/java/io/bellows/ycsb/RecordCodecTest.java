package io.bellows.ycsb;

import io.bellows.engine.TestSeeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordCodecTest {
    @Test
    void workedExampleOfTheFormatDocument() {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("field0", "abc".getBytes(StandardCharsets.UTF_8));
        fields.put("f1", new byte[0]);
        byte[] expected = {
            0x01, 0x02,
            0x06, 'f', 'i', 'e', 'l', 'd', '0', 0x03, 'a', 'b', 'c',
            0x02, 'f', '1', 0x00,
        };
        assertArrayEquals(expected, RecordCodec.encodeBytes(fields));

        Map<String, ByteIterator> update = new LinkedHashMap<>();
        update.put("f1", new StringByteIterator("z"));
        update.put("field9", new StringByteIterator("q"));
        byte[] merged = {
            0x01, 0x03,
            0x06, 'f', 'i', 'e', 'l', 'd', '0', 0x03, 'a', 'b', 'c',
            0x02, 'f', '1', 0x01, 'z',
            0x06, 'f', 'i', 'e', 'l', 'd', '9', 0x01, 'q',
        };
        assertArrayEquals(merged, RecordCodec.merge(expected, update));
    }

    @Test
    void emptyRecordIsVersionAndZeroCount() {
        byte[] record = RecordCodec.encodeBytes(Map.of());
        assertArrayEquals(new byte[] {0x01, 0x00}, record);
        assertTrue(RecordCodec.decodeAll(record).isEmpty());
    }

    @Test
    void randomRecordsRoundTripInOrder() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("RecordCodecTest.randomRecordsRoundTripInOrder");
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            LinkedHashMap<String, byte[]> fields = randomFields(rnd);
            byte[] record = RecordCodec.encodeBytes(fields);
            LinkedHashMap<String, byte[]> back = RecordCodec.decodeAll(record);
            assertEquals(new ArrayList<>(fields.keySet()), new ArrayList<>(back.keySet()), "seed=" + seed);
            for (String name : fields.keySet()) {
                assertArrayEquals(fields.get(name), back.get(name), "seed=" + seed + " field " + name);
            }
            Map<String, ByteIterator> all = new HashMap<>();
            RecordCodec.decode(record, null, all);
            assertEquals(fields.keySet(), all.keySet());
            for (String name : fields.keySet()) {
                assertArrayEquals(fields.get(name), all.get(name).toArray(), "seed=" + seed + " field " + name);
            }
        }
    }

    @Test
    void multiByteLengthsRoundTrip() {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        byte[] big = new byte[200_000];
        new Random(1).nextBytes(big);
        fields.put("n".repeat(300), big);
        fields.put("ключ", "значение".getBytes(StandardCharsets.UTF_8));
        byte[] record = RecordCodec.encodeBytes(fields);
        assertEquals(1 + 1 + 2 + 300 + 3 + big.length + 1 + 8 + 1 + 16, record.length);
        LinkedHashMap<String, byte[]> back = RecordCodec.decodeAll(record);
        assertArrayEquals(big, back.get("n".repeat(300)));
        assertEquals("значение", new String(back.get("ключ"), StandardCharsets.UTF_8));
    }

    @Test
    void subsetDecodeReturnsOnlyTheWantedFieldsAndIgnoresUnknownNames() {
        Map<String, ByteIterator> in = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            in.put("field" + i, new StringByteIterator("value" + i));
        }
        byte[] record = RecordCodec.encode(in);
        Map<String, ByteIterator> out = new HashMap<>();
        RecordCodec.decode(record, new HashSet<>(List.of("field7", "field2", "nosuchfield")), out);
        assertEquals(Set.of("field7", "field2"), out.keySet());
        assertEquals("value7", out.get("field7").toString());
        assertEquals("value2", out.get("field2").toString());

        Map<String, ByteIterator> none = new HashMap<>();
        RecordCodec.decode(record, Set.of(), none);
        assertTrue(none.isEmpty());
    }

    @Test
    void subsetDecodeStopsBeforeBytesItDoesNotNeed() {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("a", new byte[] {1});
        fields.put("b", new byte[] {2});
        byte[] record = RecordCodec.encodeBytes(fields);
        // Cut the record inside field b: a full decode fails, a decode of field a alone never reaches the damage.
        byte[] cut = Arrays.copyOf(record, record.length - 1);
        Map<String, ByteIterator> out = new HashMap<>();
        RecordCodec.decode(cut, Set.of("a"), out);
        assertArrayEquals(new byte[] {1}, out.get("a").toArray());
        assertThrows(RecordFormatException.class, () -> RecordCodec.decodeAll(cut));
    }

    @Test
    void mergeReplacesGivenFieldsKeepsOthersAndAppendsNewOnes() {
        Map<String, byte[]> stored = new LinkedHashMap<>();
        stored.put("a", bytes("1"));
        stored.put("b", bytes("2"));
        stored.put("c", bytes("3"));
        Map<String, ByteIterator> updates = new LinkedHashMap<>();
        updates.put("b", new ByteArrayByteIterator(bytes("two")));
        updates.put("d", new ByteArrayByteIterator(bytes("4")));
        LinkedHashMap<String, byte[]> merged = RecordCodec.decodeAll(RecordCodec.merge(RecordCodec.encodeBytes(stored), updates));
        assertEquals(List.of("a", "b", "c", "d"), new ArrayList<>(merged.keySet()));
        assertEquals("1", str(merged.get("a")));
        assertEquals("two", str(merged.get("b")));
        assertEquals("3", str(merged.get("c")));
        assertEquals("4", str(merged.get("d")));
    }

    @Test
    void malformedRecordsAreRefusedWithWhereAndWhy() {
        assertMalformed(new byte[0], "empty record");
        assertMalformed(new byte[] {0x02, 0x00}, "unknown record version 2, expected 1");
        assertMalformed(new byte[] {0x01}, "truncated varint (field count) at offset 1");
        assertMalformed(new byte[] {0x01, 0x05, 0x00, 0x00}, "field count 5 exceeds what 2 remaining bytes can hold");
        assertMalformed(new byte[] {0x01, 0x01, 0x09, 'a', 0x00}, "name length of field 0 is 9 but only 2 bytes remain at offset 3");
        assertMalformed(new byte[] {0x01, 0x01, 0x01, 'a', 0x05, 'x'}, "value length of field 0 is 5 but only 1 bytes remain at offset 5");
        assertMalformed(new byte[] {0x01, 0x01, 0x01, 'a', 0x00, 0x07}, "1 trailing bytes after field 1");
        assertMalformed(new byte[] {0x01, 0x02, 0x01, 'a', 0x00, 0x01, 'a', 0x00}, "field 'a' appears twice");
        assertMalformed(new byte[] {0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, 0x00},
                "varint longer than 5 bytes (field count) at offset 1");
        assertMalformed(new byte[] {0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 0x00},
                "field count 4294967295 at offset 1 is too large");
    }

    private static void assertMalformed(byte[] record, String detail) {
        RecordFormatException e = assertThrows(RecordFormatException.class, () -> RecordCodec.decodeAll(record));
        assertEquals("malformed YCSB record: " + detail, e.getMessage());
        assertThrows(RecordFormatException.class, () -> RecordCodec.decode(record, null, new HashMap<>()));
    }

    private static LinkedHashMap<String, byte[]> randomFields(Random rnd) {
        LinkedHashMap<String, byte[]> fields = new LinkedHashMap<>();
        int n = rnd.nextInt(20);
        for (int i = 0; i < n; i++) {
            byte[] value = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(1000) : rnd.nextInt(130)];
            rnd.nextBytes(value);
            fields.put("f" + rnd.nextInt(1 << rnd.nextInt(20)), value);
        }
        return fields;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
