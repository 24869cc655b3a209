package io.bellows.engine.internal.iter;

import java.util.Arrays;

/**
 * A view's bytes in an array of exactly its length, for an API that reads a whole {@code byte[]} and has
 * no (array, offset, length) form (DataSketches' {@code HllSketch.update}, a user's PTIER prefix
 * extractor). A view of a whole array is passed as it is; otherwise the bytes go into an array kept for
 * that length and reused by the next view of the same length, so keys of a few lengths (the common case)
 * cost no allocation. Lengths above {@link #MAX_REUSED} get a new array each: keeping one per length
 * would hold up to the square of the longest key.
 *
 * <p>The array returned is valid until the next call with a view of its length; the caller reads it and
 * neither keeps nor changes it. Not thread-safe: one belongs to one consumer.
 */
public final class ExactScratch {
    static final int MAX_REUSED = 256;

    private byte[][] byLength = new byte[0][];

    /** The bytes of {@code view} in an array of exactly {@code view.length()}. */
    public byte[] of(Slice view) {
        byte[] src = view.array();
        int len = view.length();
        if (view.offset() == 0 && src.length == len) {
            return src;
        }
        if (len > MAX_REUSED) {
            return view.copy();
        }
        if (len >= byLength.length) {
            byLength = Arrays.copyOf(byLength, Math.min(MAX_REUSED + 1, Math.max(len + 1, 2 * byLength.length)));
        }
        byte[] dst = byLength[len];
        if (dst == null) {
            dst = new byte[len];
            byLength[len] = dst;
        }
        System.arraycopy(src, view.offset(), dst, 0, len);
        return dst;
    }
}
