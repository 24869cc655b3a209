package io.bellows.engine;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.util.Coding;
import io.bellows.engine.internal.wal.BatchAccess;
import io.bellows.engine.internal.wal.BatchCodec;
import java.util.Arrays;
import java.util.Objects;

/**
 * An ordered list of puts and deletes applied atomically by {@link Engine#write}: after a crash either
 * all of a batch is present or none of it. Later operations on the same key win. Not thread-safe.
 *
 * <p>The batch is kept in the form of a WAL record body (docs/formats/wal.md, LevelDB's {@code rep_}): one
 * growing byte array holding a header (first sequence, op count: filled in when the batch is logged),
 * then the operations encoded (kind, varint key length, key, varint value length, value). A large batch
 * costs no object per operation, and a batch logged alone is written to the WAL as it is.
 */
public final class WriteBatch {
    /** Receives a batch's operations in order. */
    public interface Handler {
        /** A put of {@code key} to {@code value}. */
        void put(byte[] key, byte[] value);

        /** A delete of {@code key}. */
        void delete(byte[] key);
    }

    static {
        BatchAccess.install(new BatchAccess.Accessor() {
            @Override
            public int encodedLength(WriteBatch batch) {
                return batch.size - BatchCodec.HEADER_LENGTH;
            }

            @Override
            public void encodeTo(WriteBatch batch, byte[] dst, int off) {
                System.arraycopy(batch.buf, BatchCodec.HEADER_LENGTH, dst, off, batch.size - BatchCodec.HEADER_LENGTH);
            }

            @Override
            public byte[] record(WriteBatch batch, long firstSequence) {
                Coding.putLong(batch.buf, 0, firstSequence);
                Coding.putInt(batch.buf, 8, batch.count);
                return batch.buf;
            }

            @Override
            public byte[] buffer(WriteBatch batch) {
                return batch.buf;
            }

            @Override
            public int recordLength(WriteBatch batch) {
                return batch.size;
            }

            @Override
            public long userBytes(WriteBatch batch) {
                return batch.userBytes;
            }

            @Override
            public int maxValueLength(WriteBatch batch) {
                return batch.maxValueLength;
            }
        });
    }

    private byte[] buf;
    /** End of the encoded operations in {@link #buf}; they start after the record header. */
    private int size = BatchCodec.HEADER_LENGTH;
    private int count;
    private long userBytes;
    private int maxValueLength;

    /** An empty batch. */
    public WriteBatch() {
        this(64);
    }

    /** A batch whose buffer starts with room for {@code reservedBytes} of encoded operations. */
    public WriteBatch(int reservedBytes) {
        if (reservedBytes < 0) {
            throw new IllegalArgumentException("reservedBytes must be >= 0, got " + reservedBytes);
        }
        buf = new byte[BatchCodec.HEADER_LENGTH + Math.max(16, reservedBytes)];
    }

    /** Adds a put of {@code key} to {@code value} (both copied); returns this batch. */
    public WriteBatch put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        checkKey(key);
        maxValueLength = Math.max(maxValueLength, value.length);
        ensure(1 + 5 + key.length + 5 + value.length);
        buf[size++] = (byte) InternalKeys.KIND_PUT;
        size = Coding.putVarInt(buf, size, key.length);
        System.arraycopy(key, 0, buf, size, key.length);
        size += key.length;
        size = Coding.putVarInt(buf, size, value.length);
        System.arraycopy(value, 0, buf, size, value.length);
        size += value.length;
        count++;
        userBytes += key.length + value.length;
        return this;
    }

    /** Adds a delete of {@code key} (copied); returns this batch. */
    public WriteBatch delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkKey(key);
        ensure(1 + 5 + key.length);
        buf[size++] = (byte) InternalKeys.KIND_DELETE;
        size = Coding.putVarInt(buf, size, key.length);
        System.arraycopy(key, 0, buf, size, key.length);
        size += key.length;
        count++;
        userBytes += key.length;
        return this;
    }

    /** Number of operations. */
    public int count() {
        return count;
    }

    /** Removes every operation, so the batch can be reused; returns this batch. */
    public WriteBatch clear() {
        size = BatchCodec.HEADER_LENGTH;
        count = 0;
        userBytes = 0;
        maxValueLength = 0;
        return this;
    }

    /** Feeds the operations, in order, to {@code handler}. */
    public void forEach(Handler handler) {
        int[] pos = {BatchCodec.HEADER_LENGTH};
        while (pos[0] < size) {
            int kind = buf[pos[0]++];
            int klen = Coding.getVarInt(buf, pos, size);
            byte[] key = Arrays.copyOfRange(buf, pos[0], pos[0] + klen);
            pos[0] += klen;
            if (kind == InternalKeys.KIND_PUT) {
                int vlen = Coding.getVarInt(buf, pos, size);
                byte[] value = Arrays.copyOfRange(buf, pos[0], pos[0] + vlen);
                pos[0] += vlen;
                handler.put(key, value);
            } else {
                handler.delete(key);
            }
        }
    }

    static void checkKey(byte[] key) {
        if (key.length > Engine.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key length " + key.length + " exceeds the limit of "
                    + Engine.MAX_KEY_LENGTH + " bytes");
        }
    }

    private void ensure(int extra) {
        long need = (long) size + extra;
        if (need > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("write batch exceeds the limit of 2 GiB");
        }
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, 2L * buf.length)));
        }
    }
}
