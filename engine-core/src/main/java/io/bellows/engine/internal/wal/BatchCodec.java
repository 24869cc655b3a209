package io.bellows.engine.internal.wal;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The body of a WAL record: the write batches of one group commit, with the sequence of their first
 * operation (spec: docs/formats/wal.md, "WAL record body"):
 *
 * <pre>
 *  0                8           12
 *  +----------------+-----------+------------------------------------------+
 *  | first sequence | op count  | ops, in order: kind u8 (0 delete, 1 put), |
 *  | fixed64 LE     | fixed32 LE| varint key length, key,                  |
 *  |                |           | puts: varint value length, value         |
 *  +----------------+-----------+------------------------------------------+
 * </pre>
 *
 * Op {@code i} has sequence {@code firstSequence + i}. A {@link WriteBatch} is kept in this form (header,
 * then ops: {@link BatchAccess#record}), so a batch logged alone is its own record; a group's record is
 * the batches' ops ({@link BatchAccess#encodeTo}) concatenated after one header, so encoding copies
 * bytes and parses nothing. {@link #forEachOp} reads ops in place for the MemStore insert.
 */
public final class BatchCodec {
    /** Length of the fixed part before the ops. */
    public static final int HEADER_LENGTH = 12;

    /** Receives the operations of a record in order. */
    public interface Visitor {
        /**
         * One operation. {@code key} and {@code value} are fresh arrays the visitor may keep; {@code value}
         * is null for a delete.
         */
        void op(long sequence, int kind, byte[] key, byte[] value);
    }

    /** Receives the operations of a record in place, as slices of the record's buffer. */
    public interface SliceVisitor {
        /**
         * One operation: its key is {@code buf[keyOff, keyOff + keyLen)}, a put's value
         * {@code buf[valueOff, valueOff + valueLen)} (both 0 for a delete). The slices are only valid during
         * the call.
         */
        void op(long sequence, int kind, byte[] buf, int keyOff, int keyLen, int valueOff, int valueLen);
    }

    private BatchCodec() {}

    /**
     * Feeds the ops encoded in {@code buf[off, end)} to {@code visitor} in place, with consecutive
     * sequences from {@code firstSequence}; returns the sequence after the last op. REQUIRES: the ops
     * are well formed (a batch's own buffer, or a record {@link #validate} accepted): nothing is checked
     * and nothing allocated.
     */
    public static long forEachOp(byte[] buf, int off, int end, long firstSequence, SliceVisitor visitor) {
        long sequence = firstSequence;
        int p = off;
        while (p < end) {
            int kind = buf[p++];
            long keyLength = varInt(buf, p);
            p = (int) (keyLength >>> 32);
            int keyOff = p;
            int keyLen = (int) keyLength;
            p += keyLen;
            int valueOff = 0;
            int valueLen = 0;
            if (kind == InternalKeys.KIND_PUT) {
                long valueLength = varInt(buf, p);
                valueOff = (int) (valueLength >>> 32);
                valueLen = (int) valueLength;
                p = valueOff + valueLen;
            }
            visitor.op(sequence++, kind, buf, keyOff, keyLen, valueOff, valueLen);
        }
        return sequence;
    }

    /** A varint32 at {@code p}: the position after it in the high 32 bits, its value in the low 32. */
    private static long varInt(byte[] buf, int p) {
        int b = buf[p++];
        if (b >= 0) {
            return ((long) p << 32) | b;
        }
        int v = b & 0x7f;
        for (int shift = 7; ; shift += 7) {
            b = buf[p++];
            v |= (b & 0x7f) << shift;
            if (b >= 0) {
                return ((long) p << 32) | (v & 0xffffffffL);
            }
        }
    }

    /** Length of the record {@link #encodeTo} makes of {@code batches}: the header and their encoded ops. */
    public static long recordLength(List<WriteBatch> batches) {
        long length = HEADER_LENGTH;
        for (int i = 0; i < batches.size(); i++) {
            length += BatchAccess.encodedLength(batches.get(i));
        }
        return length;
    }

    /**
     * Encodes {@code batches} as one record whose first op has sequence {@code firstSequence} into
     * {@code dst[0, recordLength(batches))} (a write leader reuses one buffer for every group).
     */
    public static void encodeTo(byte[] dst, long firstSequence, List<WriteBatch> batches) {
        long length = recordLength(batches);
        long count = 0;
        for (int i = 0; i < batches.size(); i++) {
            count += batches.get(i).count();
        }
        checkLimits(firstSequence, length, count);
        if (dst.length < length) {
            throw new IllegalArgumentException("a record of " + length + " bytes does not fit in " + dst.length);
        }
        Coding.putLong(dst, 0, firstSequence);
        Coding.putInt(dst, 8, (int) count);
        int off = HEADER_LENGTH;
        for (int i = 0; i < batches.size(); i++) {
            WriteBatch batch = batches.get(i);
            BatchAccess.encodeTo(batch, dst, off);
            off += BatchAccess.encodedLength(batch);
        }
    }

    private static void checkLimits(long firstSequence, long length, long count) {
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("write batches of " + length
                    + " encoded bytes exceed the WAL record limit of 2 GiB");
        }
        if (firstSequence < 0 || firstSequence + count - 1 > InternalKeys.MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequences " + firstSequence + " to " + (firstSequence + count - 1)
                    + " exceed the limit of " + InternalKeys.MAX_SEQUENCE);
        }
    }

    /** Encodes {@code batches} as one record whose first op has sequence {@code firstSequence}. */
    public static byte[] encode(long firstSequence, List<WriteBatch> batches) {
        long length = recordLength(batches);
        // Checked before the array is made: encodeTo checks again, with the sequences.
        checkLimits(firstSequence, length, 0);
        byte[] record = new byte[(int) length];
        encodeTo(record, firstSequence, batches);
        return record;
    }

    /** REQUIRES: {@code record} is at least {@link #HEADER_LENGTH} bytes (as every record decode accepts). */
    public static int count(byte[] record) {
        checkHeader(record);
        return Coding.getInt(record, 8);
    }

    /** REQUIRES: {@code record} is at least {@link #HEADER_LENGTH} bytes (as every record decode accepts). */
    public static long firstSequence(byte[] record) {
        checkHeader(record);
        return Coding.getLong(record, 0);
    }

    /**
     * Validates the whole record, then feeds its operations to {@code visitor} in order. A damaged record
     * is never half-applied: nothing reaches the visitor unless every op parses.
     *
     * @throws CorruptionException naming {@code path} and {@code recordOffset} (the record's offset in its
     *     log) if the record is malformed
     */
    public static void decode(byte[] record, Path path, long recordOffset, Visitor visitor) {
        validate(record, path, recordOffset);
        long sequence = Coding.getLong(record, 0);
        int count = Coding.getInt(record, 8);
        int[] pos = {HEADER_LENGTH};
        for (int i = 0; i < count; i++) {
            int kind = record[pos[0]++];
            byte[] key = take(record, pos);
            byte[] value = kind == InternalKeys.KIND_PUT ? take(record, pos) : null;
            visitor.op(sequence + i, kind, key, value);
        }
    }

    private static byte[] take(byte[] record, int[] pos) {
        int length = Coding.getVarInt(record, pos, record.length);
        byte[] b = Arrays.copyOfRange(record, pos[0], pos[0] + length);
        pos[0] += length;
        return b;
    }

    /**
     * Checks that the whole record parses, as {@link #decode} does before it applies anything.
     *
     * @throws CorruptionException naming {@code path} and {@code recordOffset} if the record is malformed
     */
    public static void validate(byte[] record, Path path, long recordOffset) {
        if (record.length < HEADER_LENGTH) {
            throw new CorruptionException(path, recordOffset, "WAL record of " + record.length
                    + " bytes is shorter than its " + HEADER_LENGTH + "-byte header");
        }
        long firstSequence = Coding.getLong(record, 0);
        long count = Coding.getInt(record, 8) & 0xffffffffL;
        if (firstSequence < 0 || firstSequence + count - 1 > InternalKeys.MAX_SEQUENCE) {
            throw new CorruptionException(path, recordOffset, "WAL record sequences " + firstSequence + " + "
                    + count + " ops exceed the limit of " + InternalKeys.MAX_SEQUENCE);
        }
        int[] pos = {HEADER_LENGTH};
        int limit = record.length;
        for (long i = 0; i < count; i++) {
            if (pos[0] >= limit) {
                throw new CorruptionException(path, recordOffset, "WAL record ends after " + i + " of " + count
                        + " ops");
            }
            int kind = record[pos[0]++];
            if (!InternalKeys.validKind(kind)) {
                throw new CorruptionException(path, recordOffset, "WAL record op " + i + " has bad kind " + kind);
            }
            int keyLength = skip(record, pos, path, recordOffset, i, "key");
            if (keyLength > InternalKeys.MAX_KEY_LENGTH) {
                throw new CorruptionException(path, recordOffset, "WAL record op " + i + " has key length "
                        + keyLength + " above the limit of " + InternalKeys.MAX_KEY_LENGTH);
            }
            if (kind == InternalKeys.KIND_PUT) {
                skip(record, pos, path, recordOffset, i, "value");
            }
        }
        if (pos[0] != limit) {
            throw new CorruptionException(path, recordOffset, "WAL record has " + (limit - pos[0])
                    + " bytes after its " + count + " ops");
        }
    }

    /** Steps over a varint length and the bytes it counts; returns the length. */
    private static int skip(byte[] record, int[] pos, Path path, long recordOffset, long op, String what) {
        int length;
        try {
            length = Coding.getVarInt(record, pos, record.length);
        } catch (IllegalStateException e) {
            throw new CorruptionException(path, recordOffset, "WAL record op " + op + " has a bad " + what
                    + " length: " + e.getMessage(), e);
        }
        if (length < 0 || length > record.length - pos[0]) {
            throw new CorruptionException(path, recordOffset, "WAL record op " + op + " " + what + " length "
                    + Integer.toUnsignedString(length) + " runs past the end of the record");
        }
        pos[0] += length;
        return length;
    }

    private static void checkHeader(byte[] record) {
        if (record.length < HEADER_LENGTH) {
            throw new IllegalArgumentException("WAL record of " + record.length + " bytes has no header");
        }
    }
}
