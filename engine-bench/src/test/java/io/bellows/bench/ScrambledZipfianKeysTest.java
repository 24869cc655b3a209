package io.bellows.bench;

import io.bellows.engine.TestSeeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScrambledZipfianKeysTest {
    private static final int SAMPLES = 200_000;

    @Test
    void keysStayInRange() {
        long seed = seed();
        for (long num : new long[] {1, 2, 3, 1000, 1L << 40}) {
            KeyChooser keys = new ScrambledZipfianKeys(num, new SplittableRandom(seed));
            for (int i = 0; i < 50_000; i++) {
                long k = keys.nextKey();
                assertTrue(k >= 0 && k < num, "key " + k + " outside [0, " + num + ")");
            }
        }
    }

    @Test
    void mostFrequentKeyGetsAboutOneOverZetaOfTheDraws() {
        long[] counts = counts(new ScrambledZipfianKeys(10_000, new SplittableRandom(seed())), 10_000);
        long[] sorted = counts.clone();
        Arrays.sort(sorted);
        double top = (double) sorted[sorted.length - 1] / SAMPLES;
        double expected = 1 / ScrambledZipfianKeys.ZETAN; // 3.78%: rank 0's probability
        assertTrue(Math.abs(top - expected) < 0.005, "top key share " + top + ", expected about " + expected);
        double second = (double) sorted[sorted.length - 2] / SAMPLES;
        double expectedSecond = expected / Math.pow(2, ScrambledZipfianKeys.THETA);
        assertTrue(Math.abs(second - expectedSecond) < 0.004,
                "second key share " + second + ", expected about " + expectedSecond);
        long hottestHundred = 0;
        for (int i = 0; i < 100; i++) {
            hottestHundred += sorted[sorted.length - 1 - i];
        }
        // Uniform draws would give the hottest 1% of keys little more than 1% of the draws.
        assertTrue(hottestHundred > SAMPLES / 10, "hottest 1% of keys got " + hottestHundred + " of " + SAMPLES);
    }

    @Test
    void hotKeysAreScatteredNotClusteredAtTheStart() {
        long[] counts = counts(new ScrambledZipfianKeys(10_000, new SplittableRandom(seed())), 10_000);
        int hottest = 0;
        int secondHottest = -1;
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] > counts[hottest]) {
                secondHottest = hottest;
                hottest = i;
            } else if (secondHottest < 0 || counts[i] > counts[secondHottest]) {
                secondHottest = i;
            }
        }
        assertEquals(Math.floorMod(Math.abs(ScrambledZipfianKeys.fnvHash64(0)), 10_000L), hottest,
                "rank 0 lands where its hash says");
        assertEquals(Math.floorMod(Math.abs(ScrambledZipfianKeys.fnvHash64(1)), 10_000L), secondHottest);
    }

    @Test
    void uniformKeysAreNotSkewed() {
        long[] counts = counts(new UniformKeys(10_000, new SplittableRandom(seed())), 10_000);
        long max = Arrays.stream(counts).max().getAsLong();
        assertTrue((double) max / SAMPLES < 0.001, "uniform top share " + (double) max / SAMPLES);
    }

    @Test
    void sameSeedSameSequenceOtherSeedAnother() {
        long seed = seed();
        KeyChooser a = new ScrambledZipfianKeys(1_000_000, new SplittableRandom(seed));
        KeyChooser b = new ScrambledZipfianKeys(1_000_000, new SplittableRandom(seed));
        KeyChooser c = new ScrambledZipfianKeys(1_000_000, new SplittableRandom(seed + 1));
        long[] sa = new long[1000];
        long[] sb = new long[1000];
        long[] sc = new long[1000];
        for (int i = 0; i < 1000; i++) {
            sa[i] = a.nextKey();
            sb[i] = b.nextKey();
            sc[i] = c.nextKey();
        }
        assertArrayEquals(sa, sb);
        assertNotEquals(Arrays.toString(sa), Arrays.toString(sc));
    }

    @Test
    void fnvHashMatchesYcsb() {
        // FNV-1a 64 of eight zero bytes, as YCSB's Utils.fnvhash64(0) computes before Math.abs.
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            h *= 1099511628211L;
        }
        assertEquals(h, ScrambledZipfianKeys.fnvHash64(0));
        assertNotEquals(ScrambledZipfianKeys.fnvHash64(1), ScrambledZipfianKeys.fnvHash64(256));
    }

    private static long[] counts(KeyChooser keys, int num) {
        long[] counts = new long[num];
        for (int i = 0; i < SAMPLES; i++) {
            counts[(int) keys.nextKey()]++;
        }
        return counts;
    }

    private static long seed() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("ScrambledZipfianKeysTest");
        return seed;
    }
}
