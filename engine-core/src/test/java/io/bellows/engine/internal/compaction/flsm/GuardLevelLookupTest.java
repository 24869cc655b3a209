package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.FileMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A guard level's lookup through its 16-byte key prefixes finds the same guard and the same covering
 * tables as comparing whole keys, on keys built to tie in those bytes: shorter than 16 bytes, trailing
 * zero bytes (which the prefixes' padding cannot tell from a shorter key), longer keys sharing 16 bytes.
 */
class GuardLevelLookupTest {
    @Test
    void prefixesAgreeWithWholeKeyComparison() {
        long seed = TestSeeds.seed("GuardLevelLookupTest");
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            TreeSet<byte[]> guardKeys = new TreeSet<>(Bytes.COMPARATOR);
            int guards = 1 + r.nextInt(40);
            while (guardKeys.size() < guards) {
                guardKeys.add(key(r));
            }
            byte[][] keys = new byte[guards + 1][];
            int k = 1;
            for (byte[] g : guardKeys) {
                keys[k++] = g;
            }
            FileMeta[][] tables = new FileMeta[keys.length][];
            long number = 1;
            for (int g = 0; g < keys.length; g++) {
                List<FileMeta> t = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    byte[] a = key(r);
                    byte[] b = r.nextBoolean() ? variant(r, a) : key(r);
                    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
                    byte[] hi = lo == a ? b : a;
                    t.add(new FileMeta(number, 100, lo, 1, hi, 1, 1, number));
                    number++;
                }
                tables[g] = GuardLevel.sortedNewestFirst(t);
            }
            GuardLevel gl = new GuardLevel(1, keys, new long[keys.length], tables);
            for (int q = 0; q < 200; q++) {
                byte[] key = r.nextInt(3) == 0 ? variant(r, keys[1 + r.nextInt(guards)]) : key(r);
                int expected = naiveFind(keys, key);
                String what = "seed=" + seed + " round " + round + " key " + Bytes.toHex(key);
                assertEquals(expected, gl.find(key), what);
                long k0 = Bytes.prefixAt(key, 0, key.length, 0);
                long k1 = Bytes.prefixAt(key, 0, key.length, 8);
                for (int g = 0; g < keys.length; g++) {
                    for (int i = 0; i < tables[g].length; i++) {
                        assertEquals(tables[g][i].contains(key), gl.covers(g, i, key, k0, k1),
                                what + " guard " + g + " table " + i);
                    }
                }
                boolean any = false;
                for (FileMeta f : tables[expected]) {
                    any |= f.contains(key);
                }
                assertEquals(any, gl.mayHold(key), what);
            }
        }
    }

    @Test
    void comparePrefixedOrdersAsTheBytes() {
        long seed = TestSeeds.seed("GuardLevelLookupTest.compare");
        Random r = new Random(seed);
        for (int i = 0; i < 100_000; i++) {
            byte[] a = key(r);
            byte[] b = r.nextInt(3) == 0 ? variant(r, a) : key(r);
            int c = Bytes.comparePrefixed(Bytes.prefixAt(a, 0, a.length, 0), Bytes.prefixAt(a, 0, a.length, 8), a,
                    Bytes.prefixAt(b, 0, b.length, 0), Bytes.prefixAt(b, 0, b.length, 8), b);
            assertEquals(Integer.signum(Bytes.compare(a, b)), Integer.signum(c),
                    "seed=" + seed + " " + Bytes.toHex(a) + " vs " + Bytes.toHex(b));
        }
    }

    /** The last guard whose key is at or below {@code key}, 0 for the sentinel: whole keys compared. */
    private static int naiveFind(byte[][] keys, byte[] key) {
        int g = 0;
        for (int i = 1; i < keys.length; i++) {
            if (Bytes.compare(keys[i], key) <= 0) {
                g = i;
            }
        }
        return g;
    }

    /** Keys of 0 to 24 bytes from a small alphabet with zero bytes, so prefixes often tie. */
    private static byte[] key(Random r) {
        byte[] k = new byte[r.nextInt(25)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(4) == 0 ? 0 : r.nextInt(3) == 0 ? 0xff : 'a' + r.nextInt(2));
        }
        return k;
    }

    /** The key with a zero byte added, its last byte dropped, or unchanged. */
    private static byte[] variant(Random r, byte[] k) {
        switch (r.nextInt(3)) {
            case 0:
                return Arrays.copyOf(k, k.length + 1);
            case 1:
                return k.length == 0 ? k : Arrays.copyOf(k, k.length - 1);
            default:
                return k.clone();
        }
    }
}
