package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.util.Coding;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
    private static byte[] key(long i) {
        byte[] k = new byte[12];
        Coding.putLong(k, 0, i);
        Coding.putInt(k, 8, (int) (i * 31));
        return k;
    }

    @Test
    void noFalseNegativesAndUnderTwoPercentFalsePositivesAtTenBitsPerKey() {
        long seed = TestSeeds.seed("BloomFilterTest.noFalseNegatives");
        Random rnd = new Random(seed);
        int n = 100_000;
        long base = rnd.nextLong() >>> 2;
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) {
            hashes[i] = BloomFilter.hash(key(base + i));
        }
        byte[] encoded = BloomFilter.build(hashes, n, 10);
        assertEquals(n * 10 / 8 + 1, encoded.length);
        BloomFilter filter = BloomFilter.decode(encoded, 0, encoded.length);
        for (int i = 0; i < n; i++) {
            assertTrue(filter.mayContain(key(base + i)), "false negative");
        }
        int falsePositives = 0;
        for (int i = 0; i < n; i++) {
            if (filter.mayContain(key(base + n + 1 + i))) {
                falsePositives++;
            }
        }
        double rate = falsePositives / (double) n;
        System.out.println("bloom false-positive rate at 10 bits/key: " + rate);
        assertTrue(rate < 0.02, "false-positive rate " + rate);
    }

    @Test
    void probesFollowLevelDb() {
        assertEquals(6, BloomFilter.probes(10));
        assertEquals(1, BloomFilter.probes(1));
        assertEquals(BloomFilter.MAX_PROBES, BloomFilter.probes(100));
    }

    @Test
    void smallAndEmptyFiltersWork() {
        byte[] empty = BloomFilter.build(new long[0], 0, 10);
        assertEquals(9, empty.length);
        assertFalse(BloomFilter.decode(empty, 0, empty.length).mayContain("x".getBytes()));
        byte[] one = BloomFilter.build(new long[] {BloomFilter.hash("x".getBytes())}, 1, 10);
        assertTrue(BloomFilter.decode(one, 0, one.length).mayContain("x".getBytes()));
    }

    @Test
    void decodeWorksAtAnOffsetAndRejectsMalformedFilters() {
        byte[] f = BloomFilter.build(new long[] {BloomFilter.hash("k".getBytes())}, 1, 10);
        byte[] framed = new byte[f.length + 7];
        System.arraycopy(f, 0, framed, 3, f.length);
        assertTrue(BloomFilter.decode(framed, 3, f.length).mayContain("k".getBytes()));

        assertThrows(IllegalArgumentException.class, () -> BloomFilter.decode(new byte[1], 0, 1));
        byte[] zeroProbes = f.clone();
        zeroProbes[f.length - 1] = 0;
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.decode(zeroProbes, 0, f.length));
        byte[] tooMany = f.clone();
        tooMany[f.length - 1] = 31;
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.decode(tooMany, 0, f.length));
        assertThrows(IllegalArgumentException.class, () -> BloomFilter.build(new long[0], 0, 0));
    }
}
