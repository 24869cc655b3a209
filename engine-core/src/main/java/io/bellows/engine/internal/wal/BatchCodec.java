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
 * Op {@code i} has sequence {@code firstSequence + i}. The ops are the batches' own encoded form
 * ({@link BatchAccess#encodeTo}) concatenated, so encoding copies bytes and parses nothing.
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

    private BatchCodec() {}

    /** Encodes {@code batches} as one record whose first op has sequence {@code firstSequence}. */
    public static byte[] encode(long firstSequence, List<WriteBatch> batches) {
        long length = HEADER_LENGTH;
        long count = 0;
        for (WriteBatch batch : batches) {
            length += BatchAccess.encodedLength(batch);
            count += batch.count();
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("write batches of " + length
                    + " encoded bytes exceed the WAL record limit of 2 GiB");
        }
        if (firstSequence < 0 || firstSequence + count - 1 > InternalKeys.MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequences " + firstSequence + " to " + (firstSequence + count - 1)
                    + " exceed the limit of " + InternalKeys.MAX_SEQUENCE);
        }
        byte[] record = new byte[(int) length];
        Coding.putLong(record, 0, firstSequence);
        Coding.putInt(record, 8, (int) count);
        int off = HEADER_LENGTH;
        for (WriteBatch batch : batches) {
            BatchAccess.encodeTo(batch, record, off);
            off += BatchAccess.encodedLength(batch);
        }
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
