package io.bellows.engine.internal.key;

import java.nio.ByteBuffer;

import java.util.Arrays;

/**
 * The outcome of a point lookup in one source (MemStore segment, table): the newest entry of a key
 * visible at a sequence. Mutable and reused across sources within one get (and across gets of one
 * thread), so a get allocates no holder per source probed.
 *
 * <p>The value is a slice of {@link #valueBuf}, which may be a source's own memory (a cached block's
 * array, a MemStore cell's array or MSLAB chunk: valid while the read's view and version pin it) or a
 * per-thread scratch array of the source (an off-heap cell's value: valid until this thread's next
 * lookup). It is never modified through this reference, and the reader copies it out once
 * ({@link #copyValue}, {@link #copyValueTo}) right after the lookup, instead of every source copying it.
 */
public final class Lookup {
    /** Sequence of the entry found. */
    public long sequence;
    /** {@link InternalKeys#KIND_PUT} or {@link InternalKeys#KIND_DELETE}. */
    public int kind;
    /** The array holding the value of a PUT; null for a DELETE. Never modified through this reference. */
    public byte[] valueBuf;
    public int valueOffset;
    public int valueLength;
    /**
     * Set by a table probe whose reads make a compaction due (read-triggered compaction), so the read
     * path schedules one; not part of the outcome.
     */
    public boolean compactionDue;

    /** An entry whose value is the whole of {@code value} (null for a DELETE). */
    public void set(long sequence, int kind, byte[] value) {
        set(sequence, kind, value, 0, value == null ? 0 : value.length);
    }

    /** An entry whose value is {@code buf[offset, offset + length)} (buf null for a DELETE). */
    public void set(long sequence, int kind, byte[] buf, int offset, int length) {
        this.sequence = sequence;
        this.kind = kind;
        this.valueBuf = buf;
        this.valueOffset = offset;
        this.valueLength = length;
    }

    /** Takes the outcome of {@code other}, sharing its value's bytes. */
    public void set(Lookup other) {
        set(other.sequence, other.kind, other.valueBuf, other.valueOffset, other.valueLength);
    }

    /** The value in an array of its own; null for a DELETE. */
    public byte[] copyValue() {
        if (valueBuf == null) {
            return kind == InternalKeys.KIND_PUT ? new byte[0] : null;
        }
        return Arrays.copyOfRange(valueBuf, valueOffset, valueOffset + valueLength);
    }

    /** Copies as much of the value as fits into {@code dst} from {@code off}; returns its whole length. */
    public int copyValueTo(byte[] dst, int off) {
        if (valueLength == 0) {
            return 0;
        }
        System.arraycopy(valueBuf, valueOffset, dst, off, Math.min(valueLength, dst.length - off));
        return valueLength;
    }

    /**
     * Copies the value into {@code dst} from its position (as much as fits), sets its limit after the
     * bytes copied, leaves its position, and returns the value's full length.
     */
    public int copyValueTo(ByteBuffer dst) {
        int n = Math.min(valueLength, dst.remaining());
        if (n > 0) {
            dst.put(dst.position(), valueBuf, valueOffset, n);
        }
        dst.limit(dst.position() + n);
        return valueLength;
    }

    /** Drops the reference to the source's memory, so a reused holder does not keep a block alive. */
    public void release() {
        valueBuf = null;
    }
}
