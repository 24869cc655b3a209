package io.bellows.engine.internal.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;

/** Unsigned-lexicographic byte string helpers: the one key order of Bellows. */
public final class Bytes {
    public static final byte[] EMPTY = new byte[0];
    public static final Comparator<byte[]> COMPARATOR = Arrays::compareUnsigned;

    private Bytes() {}

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    public static int compare(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
        return Arrays.compareUnsigned(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
    }

    /** Plain reads only (all a byte-array view offers on every JDK), unaligned. */
    private static final VarHandle BIG_ENDIAN = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * Key bytes {@code [from, from + 8)} of {@code key[off, off + len)} as a big-endian long, zero past the
     * key's end: unsigned comparison of these orders keys as their bytes do, up to ties of zero padding.
     */
    public static long prefixAt(byte[] key, int off, int len, int from) {
        if (len - from >= 8) {
            return (long) BIG_ENDIAN.get(key, off + from);
        }
        long p = 0;
        for (int j = 0; j < 8; j++) {
            p = (p << 8) | (from + j < len ? key[off + from + j] & 0xffL : 0);
        }
        return p;
    }

    /**
     * The key order of {@code a} and {@code b} given their first 16 bytes as {@link #prefixAt} longs
     * ({@code a0}, {@code a1} at 0 and 8): the arrays are read only when those tie (keys that share 16
     * bytes, or differ only by zero padding).
     */
    public static int comparePrefixed(long a0, long a1, byte[] a, long b0, long b1, byte[] b) {
        int c = Long.compareUnsigned(a0, b0);
        if (c == 0) {
            c = Long.compareUnsigned(a1, b1);
        }
        return c != 0 ? c : Arrays.compareUnsigned(a, b);
    }

    /** Length of the common prefix of a and b. */
    public static int sharedPrefix(byte[] a, byte[] b) {
        int n = Arrays.mismatch(a, b);
        return n < 0 ? a.length : n;
    }

    public static String toHex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}
