package io.bellows.engine.internal.util;

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
