package io.bellows.engine.internal.table;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Encoding of the properties block: named values, so a later format can add properties that older
 * readers skip without a version change.
 *
 * <pre>
 * contents := property*            (names strictly ascending)
 * property := varint32 name_length | name (ASCII) | varint32 value_length | value
 * </pre>
 *
 * Counts are varint64 values; the smallest and largest keys are internal keys (user key + 8-byte
 * trailer). Every property this build knows is required, except the optional scheme metadata (bytes
 * the compaction scheme stores with the table, opaque to the engine).
 */
final class PropertiesBlock {
    static final String DELETIONS = "deletions";
    static final String ENTRIES = "entries";
    static final String LARGEST_KEY = "largest.key";
    static final String RAW_KEY_BYTES = "raw.key.bytes";
    static final String RAW_VALUE_BYTES = "raw.value.bytes";
    static final String SCHEME_METADATA = "scheme.metadata";
    static final String SMALLEST_KEY = "smallest.key";

    private PropertiesBlock() {}

    static byte[] encode(long entries, long deletions, byte[] smallestKey, long smallestTrailer, byte[] largestKey,
            long largestTrailer, long rawKeyBytes, long rawValueBytes, byte[] schemeMetadata) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + smallestKey.length + largestKey.length
                + (schemeMetadata == null ? 0 : schemeMetadata.length));
        putNumber(out, DELETIONS, deletions);
        putNumber(out, ENTRIES, entries);
        putKey(out, LARGEST_KEY, largestKey, largestTrailer);
        putNumber(out, RAW_KEY_BYTES, rawKeyBytes);
        putNumber(out, RAW_VALUE_BYTES, rawValueBytes);
        if (schemeMetadata != null) {
            putProperty(out, SCHEME_METADATA, schemeMetadata, schemeMetadata.length);
        }
        putKey(out, SMALLEST_KEY, smallestKey, smallestTrailer);
        return out.toByteArray();
    }

    /** Decodes {@code b[0, len)}, the contents of the block at {@code blockOffset} of {@code path}. */
    static TableProperties decode(byte[] b, int len, long fileSize, Path path, long blockOffset) {
        long entries = -1;
        long deletions = -1;
        long rawKeyBytes = -1;
        long rawValueBytes = -1;
        byte[] smallest = null;
        byte[] largest = null;
        byte[] schemeMetadata = null;
        int[] pos = {0};
        String previous = "";
        try {
            while (pos[0] < len) {
                int nameLength = Coding.getVarInt(b, pos, len);
                String name = new String(b, pos[0], checkLength(nameLength, pos[0], len), StandardCharsets.US_ASCII);
                pos[0] += nameLength;
                if (name.compareTo(previous) <= 0) {
                    throw new IllegalStateException("property " + name + " out of order");
                }
                previous = name;
                int valueLength = Coding.getVarInt(b, pos, len);
                int valueStart = pos[0];
                int valueEnd = valueStart + checkLength(valueLength, valueStart, len);
                switch (name) {
                    case DELETIONS -> deletions = number(b, pos, valueEnd);
                    case ENTRIES -> entries = number(b, pos, valueEnd);
                    case RAW_KEY_BYTES -> rawKeyBytes = number(b, pos, valueEnd);
                    case RAW_VALUE_BYTES -> rawValueBytes = number(b, pos, valueEnd);
                    case SMALLEST_KEY -> smallest = Arrays.copyOfRange(b, valueStart, valueEnd);
                    case LARGEST_KEY -> largest = Arrays.copyOfRange(b, valueStart, valueEnd);
                    case SCHEME_METADATA -> schemeMetadata = Arrays.copyOfRange(b, valueStart, valueEnd);
                    default -> { }
                }
                pos[0] = valueEnd;
            }
        } catch (IllegalStateException e) {
            throw new CorruptionException(path, blockOffset + pos[0], "malformed properties block: " + e.getMessage());
        }
        if (entries < 1 || deletions < 0 || deletions > entries || rawKeyBytes < 0 || rawValueBytes < 0
                || !internalKey(smallest) || !internalKey(largest)) {
            throw new CorruptionException(path, blockOffset,
                    "properties block lacks or has invalid required properties");
        }
        byte[] smallestKey = Arrays.copyOf(smallest, smallest.length - TableFormat.KEY_TRAILER_LENGTH);
        long smallestSeq = InternalKeys.sequence(Coding.getLong(smallest, smallestKey.length));
        byte[] largestKey = Arrays.copyOf(largest, largest.length - TableFormat.KEY_TRAILER_LENGTH);
        long largestSeq = InternalKeys.sequence(Coding.getLong(largest, largestKey.length));
        if (InternalKeys.compare(smallestKey, smallestSeq, largestKey, largestSeq) > 0) {
            throw new CorruptionException(path, blockOffset, "properties: smallest key is after largest key");
        }
        return new TableProperties(fileSize, entries, deletions, smallestKey, smallestSeq, largestKey, largestSeq,
                rawKeyBytes, rawValueBytes, schemeMetadata);
    }

    private static boolean internalKey(byte[] k) {
        return k != null && k.length >= TableFormat.KEY_TRAILER_LENGTH
                && k.length - TableFormat.KEY_TRAILER_LENGTH <= InternalKeys.MAX_KEY_LENGTH;
    }

    private static int checkLength(int length, int at, int limit) {
        if (length < 0 || length > limit - at) {
            throw new IllegalStateException("length " + length + " overruns the block");
        }
        return length;
    }

    private static long number(byte[] b, int[] pos, int end) {
        long v = Coding.getVarLong(b, pos, end);
        if (pos[0] != end) {
            throw new IllegalStateException("number property with trailing bytes");
        }
        return v;
    }

    private static void putNumber(ByteArrayOutputStream out, String name, long value) {
        byte[] v = new byte[10];
        putProperty(out, name, v, Coding.putVarLong(v, 0, value));
    }

    private static void putKey(ByteArrayOutputStream out, String name, byte[] userKey, long trailer) {
        byte[] v = Arrays.copyOf(userKey, userKey.length + TableFormat.KEY_TRAILER_LENGTH);
        Coding.putLong(v, userKey.length, trailer);
        putProperty(out, name, v, v.length);
    }

    private static void putProperty(ByteArrayOutputStream out, String name, byte[] value, int valueLength) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] varint = new byte[5];
        out.write(varint, 0, Coding.putVarInt(varint, 0, n.length));
        out.write(n, 0, n.length);
        out.write(varint, 0, Coding.putVarInt(varint, 0, valueLength));
        out.write(value, 0, valueLength);
    }
}
