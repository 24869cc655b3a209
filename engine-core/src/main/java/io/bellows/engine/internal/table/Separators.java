package io.bellows.engine.internal.table;

import java.util.Arrays;

/**
 * Short user keys for index entries (LevelDB's FindShortestSeparator and FindShortSuccessor). An
 * index entry for a block needs a key at or after the block's last key and before the next block's
 * first key; a shorter one than the last key keeps the index small. Paired with the largest
 * sequence, a user key strictly between two user keys is such a key in internal order.
 */
final class Separators {
    private Separators() {}

    /**
     * A user key {@code s} with {@code a < s < b}, shorter than {@code a}, or null when there is none.
     * REQUIRES: {@code a < b}.
     */
    static byte[] between(byte[] a, byte[] b) {
        int n = Arrays.mismatch(a, b);
        if (n < 0 || n >= Math.min(a.length, b.length) || n + 1 >= a.length) {
            return null;
        }
        int d = a[n] & 0xff;
        if (d == 0xff || d + 1 >= (b[n] & 0xff)) {
            return null;
        }
        byte[] s = Arrays.copyOf(a, n + 1);
        s[n] = (byte) (d + 1);
        return s;
    }

    /** A user key {@code s > a}, shorter than {@code a}, or null when there is none. */
    static byte[] after(byte[] a) {
        for (int i = 0; i + 1 < a.length; i++) {
            if (a[i] != (byte) 0xff) {
                byte[] s = Arrays.copyOf(a, i + 1);
                s[i]++;
                return s;
            }
        }
        return null;
    }
}
