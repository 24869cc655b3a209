package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.util.Bytes;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SeparatorsTest {
    private static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    /** Through the builder's entry point, with {@code b} inside a larger array and junk in the output. */
    private static byte[] between(byte[] a, byte[] b) {
        byte[] in = new byte[b.length + 5];
        Arrays.fill(in, (byte) 0x7f);
        System.arraycopy(b, 0, in, 3, b.length);
        byte[] out = new byte[a.length];
        Arrays.fill(out, (byte) 0x55);
        int n = Separators.between(a, a.length, in, 3, b.length, out);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }

    private static byte[] after(byte[] a) {
        byte[] out = new byte[a.length];
        Arrays.fill(out, (byte) 0x55);
        int n = Separators.after(a, a.length, out);
        return n < 0 ? null : Arrays.copyOf(out, n);
    }

    @Test
    void examples() {
        assertArrayEquals("abd".getBytes(), between("abcdef".getBytes(), "abzz".getBytes()));
        assertNull(between("abc".getBytes(), "abd".getBytes()));
        assertNull(between("ab".getBytes(), "abc".getBytes()));
        assertNull(between("abc".getBytes(), "abc".getBytes()));
        assertArrayEquals(b(0xff, 2), between(b(0xff, 1, 2), b(0xff, 9)));
        assertNull(between(b(1, 0xff, 5), b(2, 0)));
        assertArrayEquals("b".getBytes(), after("abc".getBytes()));
        assertArrayEquals(b(0xff, 0x01), after(b(0xff, 0x00, 0x05)));
        assertNull(after(b(0xff, 0xff)));
        assertNull(after("a".getBytes()));
        assertNull(after(Bytes.EMPTY));
    }

    @Test
    void separatorsLieStrictlyBetweenAndSuccessorsAfter() {
        Random rnd = new Random(TestSeeds.seed("SeparatorsTest.separatorsLieStrictlyBetweenAndSuccessorsAfter"));
        for (int i = 0; i < 100_000; i++) {
            byte[] a = randomKey(rnd);
            byte[] c = randomKey(rnd);
            int cmp = Bytes.compare(a, c);
            if (cmp == 0) {
                continue;
            }
            byte[] lo = cmp < 0 ? a : c;
            byte[] hi = cmp < 0 ? c : a;
            byte[] s = between(lo, hi);
            if (s != null) {
                assertTrue(Bytes.compare(lo, s) < 0 && Bytes.compare(s, hi) < 0 && s.length < lo.length);
            }
            byte[] t = after(lo);
            if (t != null) {
                assertTrue(Bytes.compare(lo, t) < 0 && t.length < lo.length);
            }
        }
    }

    private static byte[] randomKey(Random rnd) {
        byte[] k = new byte[rnd.nextInt(6)];
        for (int j = 0; j < k.length; j++) {
            int r = rnd.nextInt(5);
            k[j] = (byte) (r == 0 ? 0xff : r == 1 ? 0 : r == 2 ? rnd.nextInt(256) : 'a' + rnd.nextInt(3));
        }
        return k;
    }
}
