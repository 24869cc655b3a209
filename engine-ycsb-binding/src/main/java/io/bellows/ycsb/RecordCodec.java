package io.bellows.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * The field-map encoding of a YCSB record as one engine value (docs/formats/ycsb-record.md):
 *
 * <pre>
 * record := version:u8 (=1)  count:varint  entry{count}
 * entry  := nameLength:varint  name:UTF-8  valueLength:varint  value:bytes
 * </pre>
 *
 * Varints are unsigned LEB128 of at most 5 bytes. Field names are unique within a record. The codec keeps its
 * own varint routines because it may use only the engine's public API, not its internal {@code util} package.
 */
final class RecordCodec {
    static final int VERSION = 1;

    private RecordCodec() {}

    /** Encodes {@code fields} in the map's iteration order; each value iterator is consumed. */
    static byte[] encode(Map<String, ? extends ByteIterator> fields) {
        String[] names = new String[fields.size()];
        byte[][] values = new byte[names.length][];
        int i = 0;
        for (Map.Entry<String, ? extends ByteIterator> e : fields.entrySet()) {
            names[i] = e.getKey();
            values[i++] = e.getValue().toArray();
        }
        return encode(names, values);
    }

    static byte[] encodeBytes(Map<String, byte[]> fields) {
        return encode(fields.keySet().toArray(new String[0]), fields.values().toArray(new byte[0][]));
    }

    private static byte[] encode(String[] fieldNames, byte[][] values) {
        byte[][] names = new byte[fieldNames.length][];
        int size = 1 + varIntSize(names.length);
        for (int i = 0; i < names.length; i++) {
            names[i] = fieldNames[i].getBytes(StandardCharsets.UTF_8);
            size = Math.addExact(size, varIntSize(names[i].length) + names[i].length + varIntSize(values[i].length));
            size = Math.addExact(size, values[i].length);
        }
        byte[] out = new byte[size];
        out[0] = VERSION;
        int pos = putVarInt(out, 1, names.length);
        for (int i = 0; i < names.length; i++) {
            pos = putVarInt(out, pos, names[i].length);
            System.arraycopy(names[i], 0, out, pos, names[i].length);
            pos = putVarInt(out, pos + names[i].length, values[i].length);
            System.arraycopy(values[i], 0, out, pos, values[i].length);
            pos += values[i].length;
        }
        return out;
    }

    /**
     * Puts the fields of {@code record} named in {@code wanted} (every field if null) into {@code out}, which
     * the caller passes empty, as iterators over {@code record} itself, without copying values. With a subset
     * it compares names as UTF-8 bytes in place, builds no String for a field it skips, and stops once every
     * wanted field is found, so it checks only the bytes up to there.
     */
    static void decode(byte[] record, Set<String> wanted, Map<String, ByteIterator> out) {
        if (wanted == null) {
            Walker w = new Walker(record);
            while (w.next()) {
                String name = w.name();
                if (out.put(name, new ByteArrayByteIterator(record, w.valueOffset, w.valueLength)) != null) {
                    throw new RecordFormatException("field '" + name + "' appears twice");
                }
            }
            w.finish();
            return;
        }
        byte[][] names = new byte[wanted.size()][];
        String[] strings = new String[names.length];
        int i = 0;
        for (String s : wanted) {
            strings[i] = s;
            names[i++] = s.getBytes(StandardCharsets.UTF_8);
        }
        int missing = names.length;
        Walker w = new Walker(record);
        while (missing > 0 && w.next()) {
            for (int j = 0; j < names.length; j++) {
                if (names[j] != null && w.nameEquals(names[j])) {
                    out.put(strings[j], new ByteArrayByteIterator(record, w.valueOffset, w.valueLength));
                    names[j] = null;
                    missing--;
                    break;
                }
            }
        }
    }

    /** Every field of {@code record}, in record order, values copied out. */
    static LinkedHashMap<String, byte[]> decodeAll(byte[] record) {
        Walker w = new Walker(record);
        LinkedHashMap<String, byte[]> fields = new LinkedHashMap<>(w.count * 2);
        while (w.next()) {
            String name = w.name();
            byte[] value = Arrays.copyOfRange(record, w.valueOffset, w.valueOffset + w.valueLength);
            if (fields.put(name, value) != null) {
                throw new RecordFormatException("field '" + name + "' appears twice");
            }
        }
        w.finish();
        return fields;
    }

    /**
     * {@code stored} with the fields of {@code updates} replaced or added: stored fields keep their order,
     * new ones follow in the iteration order of {@code updates}. Each update iterator is consumed.
     */
    static byte[] merge(byte[] stored, Map<String, ? extends ByteIterator> updates) {
        LinkedHashMap<String, byte[]> fields = decodeAll(stored);
        for (Map.Entry<String, ? extends ByteIterator> e : updates.entrySet()) {
            fields.put(e.getKey(), e.getValue().toArray());
        }
        return encodeBytes(fields);
    }

    static int varIntSize(int v) {
        int n = 1;
        while ((v & ~0x7f) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    static int putVarInt(byte[] b, int off, int v) {
        while ((v & ~0x7f) != 0) {
            b[off++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[off++] = (byte) v;
        return off;
    }

    /** Steps through a record's entries, checking every length against the bytes left. */
    private static final class Walker {
        private final byte[] b;
        final int count;
        private int pos;
        private int seen;
        int nameOffset;
        int nameLength;
        int valueOffset;
        int valueLength;

        Walker(byte[] record) {
            b = record;
            if (record.length == 0) {
                throw new RecordFormatException("empty record");
            }
            if (record[0] != VERSION) {
                throw new RecordFormatException("unknown record version " + (record[0] & 0xff) + ", expected " + VERSION);
            }
            pos = 1;
            count = varInt("field count");
            // Every entry takes at least two bytes (two zero lengths), so a larger count cannot be genuine.
            if (count > (b.length - pos) / 2) {
                throw new RecordFormatException("field count " + count + " exceeds what " + (b.length - pos)
                        + " remaining bytes can hold");
            }
        }

        boolean next() {
            if (seen == count) {
                return false;
            }
            nameLength = length("name length of field " + seen);
            nameOffset = pos;
            pos += nameLength;
            valueLength = length("value length of field " + seen);
            valueOffset = pos;
            pos += valueLength;
            seen++;
            return true;
        }

        /** After the last entry: a record has no trailing bytes. */
        void finish() {
            if (pos != b.length) {
                throw new RecordFormatException((b.length - pos) + " trailing bytes after field " + count);
            }
        }

        String name() {
            return new String(b, nameOffset, nameLength, StandardCharsets.UTF_8);
        }

        boolean nameEquals(byte[] name) {
            return Arrays.equals(b, nameOffset, nameOffset + nameLength, name, 0, name.length);
        }

        private int length(String what) {
            int n = varInt(what);
            if (n > b.length - pos) {
                throw new RecordFormatException(what + " is " + n + " but only " + (b.length - pos)
                        + " bytes remain at offset " + pos);
            }
            return n;
        }

        private int varInt(String what) {
            int start = pos;
            long v = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                if (pos >= b.length) {
                    throw new RecordFormatException("truncated varint (" + what + ") at offset " + start);
                }
                int x = b[pos++];
                v |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    if (v > Integer.MAX_VALUE) {
                        throw new RecordFormatException(what + " " + v + " at offset " + start + " is too large");
                    }
                    return (int) v;
                }
            }
            throw new RecordFormatException("varint longer than 5 bytes (" + what + ") at offset " + start);
        }
    }
}
