package io.bellows.engine.internal.iter;

import io.bellows.engine.internal.util.Bytes;
import java.util.Arrays;

/**
 * A view of bytes {@code array()[offset(), offset() + length())} (LevelDB's Slice, a flyweight in Agrona's
 * style): an iterator re-points one it owns at each entry instead of copying the entry out, and a consumer
 * that keeps the bytes past the iterator's next move copies them into scratch of its own
 * ({@link #copyInto}). The bytes are never modified through a view.
 *
 * <p>Not thread-safe; a view belongs to the iterator or consumer that re-points it.
 */
public final class Slice {
    private byte[] array = Bytes.EMPTY;
    private int offset;
    private int length;

    /** An empty view. */
    public Slice() {}

    /** A view of the whole of {@code array}. */
    public static Slice of(byte[] array) {
        return new Slice().set(array);
    }

    /** Re-points this view at the whole of {@code a} (null: empty). */
    public Slice set(byte[] a) {
        return a == null ? set(Bytes.EMPTY, 0, 0) : set(a, 0, a.length);
    }

    /** Re-points this view at {@code a[off, off + len)}. */
    public Slice set(byte[] a, int off, int len) {
        this.array = a;
        this.offset = off;
        this.length = len;
        return this;
    }

    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** Unsigned lexicographic order, as {@link Bytes#compare}. */
    public int compareTo(Slice o) {
        return Arrays.compareUnsigned(array, offset, offset + length, o.array, o.offset, o.offset + o.length);
    }

    /** Unsigned lexicographic order against the whole of {@code b}. */
    public int compareTo(byte[] b) {
        return Arrays.compareUnsigned(array, offset, offset + length, b, 0, b.length);
    }

    /** Unsigned lexicographic order against {@code b[0, len)}. */
    public int compareTo(byte[] b, int len) {
        return Arrays.compareUnsigned(array, offset, offset + length, b, 0, len);
    }

    public boolean contentEquals(Slice o) {
        return Arrays.equals(array, offset, offset + length, o.array, o.offset, o.offset + o.length);
    }

    public boolean contentEquals(byte[] b) {
        return Arrays.equals(array, offset, offset + length, b, 0, b.length);
    }

    /** Whether the view holds exactly {@code b[0, len)}. */
    public boolean contentEquals(byte[] b, int len) {
        return Arrays.equals(array, offset, offset + length, b, 0, len);
    }

    /** The bytes in a new array, never shared with the view. */
    public byte[] copy() {
        return Arrays.copyOfRange(array, offset, offset + length);
    }

    /**
     * Copies the bytes into {@code scratch} (grown when too small) and returns the array that holds them
     * from 0; the caller keeps it and passes it back next time.
     */
    public byte[] copyInto(byte[] scratch) {
        byte[] dst = scratch == null || scratch.length < length ? new byte[Math.max(length, scratch == null ? 16
                : 2 * scratch.length)] : scratch;
        System.arraycopy(array, offset, dst, 0, length);
        return dst;
    }

    @Override
    public String toString() {
        return Bytes.toHex(Arrays.copyOfRange(array, offset, offset + length));
    }
}
