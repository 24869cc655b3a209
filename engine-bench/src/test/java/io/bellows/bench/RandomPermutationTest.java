package io.bellows.bench;

import io.bellows.engine.TestSeeds;
import java.util.BitSet;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RandomPermutationTest {
    @Test
    void isABijectionOnItsRange() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("RandomPermutationTest.isABijectionOnItsRange");
        for (int n : new int[] {1, 2, 3, 4, 5, 17, 1000, 1024, 1025, 65_537}) {
            RandomPermutation p = new RandomPermutation(n, seed);
            BitSet seen = new BitSet(n);
            for (int i = 0; i < n; i++) {
                long x = p.apply(i);
                assertTrue(x >= 0 && x < n, "n=" + n + ": " + i + " -> " + x);
                assertTrue(!seen.get((int) x), "n=" + n + ": " + x + " produced twice");
                seen.set((int) x);
            }
            assertEquals(n, seen.cardinality());
        }
    }

    @Test
    void shufflesAndDependsOnlyOnTheSeed() {
        int n = 10_000;
        RandomPermutation a = new RandomPermutation(n, 7);
        RandomPermutation b = new RandomPermutation(n, 7);
        RandomPermutation c = new RandomPermutation(n, 8);
        int fixedPoints = 0;
        int ascending = 0;
        int differsFromOtherSeed = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(a.apply(i), b.apply(i));
            fixedPoints += a.apply(i) == i ? 1 : 0;
            ascending += i > 0 && a.apply(i) > a.apply(i - 1) ? 1 : 0;
            differsFromOtherSeed += a.apply(i) != c.apply(i) ? 1 : 0;
        }
        // A random permutation has about one fixed point and about n/2 ascents.
        assertTrue(fixedPoints < 10, "fixed points " + fixedPoints);
        assertTrue(Math.abs(ascending - n / 2) < n / 20, "ascents " + ascending);
        assertTrue(differsFromOtherSeed > n * 9 / 10, "differs from seed 8 at " + differsFromOtherSeed);
    }

    @Test
    void largeRangesNeedNoMemory() {
        RandomPermutation p = new RandomPermutation(1L << 40, 1);
        long x = p.apply((1L << 40) - 1);
        assertTrue(x >= 0 && x < 1L << 40);
        assertNotEquals(p.apply(0), p.apply(1));
    }

    @Test
    void rejectsOutOfRangeInput() {
        assertThrows(IllegalArgumentException.class, () -> new RandomPermutation(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RandomPermutation(5, 1).apply(5));
        assertThrows(IllegalArgumentException.class, () -> new RandomPermutation(5, 1).apply(-1));
    }
}
