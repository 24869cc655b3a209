package io.bellows.engine.internal.wal;

import io.bellows.engine.WriteBatch;

/**
 * What the write path reads of a {@link WriteBatch} beyond its public API: its encoded operations (the
 * body of a WAL record, docs/formats/wal.md), their length, the user bytes and the longest value.
 * WriteBatch installs the accessor when its class initializes (the JDK's SharedSecrets pattern), so
 * these stay out of the API without copying the batch.
 */
public final class BatchAccess {
    /** Implemented by WriteBatch. */
    public interface Accessor {
        int encodedLength(WriteBatch batch);

        void encodeTo(WriteBatch batch, byte[] dst, int off);

        byte[] record(WriteBatch batch, long firstSequence);

        byte[] buffer(WriteBatch batch);

        int recordLength(WriteBatch batch);

        long userBytes(WriteBatch batch);

        int maxValueLength(WriteBatch batch);
    }

    private static volatile Accessor accessor;

    private BatchAccess() {}

    /** Called once, by WriteBatch's static initializer; refuses any other accessor. */
    public static void install(Accessor a) {
        if (a.getClass().getEnclosingClass() != WriteBatch.class) {
            throw new IllegalArgumentException("only WriteBatch installs its accessor, not " + a.getClass());
        }
        synchronized (BatchAccess.class) {
            if (accessor != null) {
                throw new IllegalStateException("the WriteBatch accessor is already installed");
            }
            accessor = a;
        }
    }

    /**
     * Length of the batch's operations in their encoded form: per operation a kind byte (0 delete,
     * 1 put), varint key length, key, and for puts varint value length and value.
     */
    public static int encodedLength(WriteBatch batch) {
        return accessor.encodedLength(batch);
    }

    /** Copies the encoded operations to {@code dst[off..]}. */
    public static void encodeTo(WriteBatch batch, byte[] dst, int off) {
        accessor.encodeTo(batch, dst, off);
    }

    /**
     * The batch as a whole WAL record body: its buffer with the header set to {@code firstSequence} and
     * the op count; the record is its first {@link #recordLength} bytes. The buffer stays the batch's: it
     * must not be changed, and is only valid until the batch is next changed.
     */
    public static byte[] record(WriteBatch batch, long firstSequence) {
        return accessor.record(batch, firstSequence);
    }

    /**
     * The batch's buffer, for reading its operations in place: they are the bytes from
     * {@link BatchCodec#HEADER_LENGTH} to {@link #recordLength}, encoded as in a WAL record body.
     */
    public static byte[] buffer(WriteBatch batch) {
        return accessor.buffer(batch);
    }

    /** Length of the batch as a WAL record body: header and encoded operations. */
    public static int recordLength(WriteBatch batch) {
        return accessor.recordLength(batch);
    }

    /** Sum of key and value lengths of all operations. */
    public static long userBytes(WriteBatch batch) {
        return accessor.userBytes(batch);
    }

    /** Length of the longest value put. */
    public static int maxValueLength(WriteBatch batch) {
        return accessor.maxValueLength(batch);
    }
}
