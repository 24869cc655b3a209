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
     * A user key {@code s} with {@code a < s < b}, shorter than {@code a}, written to {@code out} (room
     * for {@code aLength} bytes): its length, or -1 when there is none. {@code a} is
     * {@code a[0, aLength)}, {@code b} is {@code b[bOffset, bOffset + bLength)}. REQUIRES: {@code a < b}.
     */
    static int between(byte[] a, int aLength, byte[] b, int bOffset, int bLength, byte[] out) {
        int n = Arrays.mismatch(a, 0, aLength, b, bOffset, bOffset + bLength);
        if (n < 0 || n >= Math.min(aLength, bLength) || n + 1 >= aLength) {
            return -1;
        }
        int d = a[n] & 0xff;
        if (d == 0xff || d + 1 >= (b[bOffset + n] & 0xff)) {
            return -1;
        }
        System.arraycopy(a, 0, out, 0, n + 1);
        out[n] = (byte) (d + 1);
        return n + 1;
    }

    /**
     * A user key {@code s > a[0, aLength)}, shorter than it, written to {@code out} (room for
     * {@code aLength} bytes): its length, or -1 when there is none.
     */
    static int after(byte[] a, int aLength, byte[] out) {
        for (int i = 0; i + 1 < aLength; i++) {
            if (a[i] != (byte) 0xff) {
                System.arraycopy(a, 0, out, 0, i + 1);
                out[i]++;
                return i + 1;
            }
        }
        return -1;
    }
}
