package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * A seeded pseudo-random bijection on [0, n) computed on demand, so fillrandom can write every key
 * exactly once in random order with O(1) memory whatever n is. A four-round balanced Feistel network
 * permutes [0, 2^bits) (bits even, 2^bits &gt;= n); values that land outside [0, n) are encrypted
 * again ("cycle walking"), which stays a bijection on [0, n) and needs fewer than four rounds of
 * walking on average because 2^bits &lt; 4n.
 */
final class RandomPermutation {
    private static final int ROUNDS = 4;

    private final long n;
    private final int halfBits;
    private final long halfMask;
    private final long[] roundKeys = new long[ROUNDS];

    RandomPermutation(long n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("permutation size must be at least 1, got " + n);
        }
        this.n = n;
        int bits = Math.max(2, 64 - Long.numberOfLeadingZeros(n - 1));
        halfBits = (bits + 1) / 2;
        halfMask = (1L << halfBits) - 1;
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < ROUNDS; i++) {
            roundKeys[i] = random.nextLong();
        }
    }

    long size() {
        return n;
    }

    /** The image of {@code i}; REQUIRES 0 &lt;= i &lt; size(). */
    long apply(long i) {
        if (i < 0 || i >= n) {
            throw new IllegalArgumentException("index " + i + " outside [0, " + n + ")");
        }
        long x = encrypt(i);
        while (x >= n) {
            x = encrypt(x);
        }
        return x;
    }

    private long encrypt(long x) {
        long left = x >>> halfBits;
        long right = x & halfMask;
        for (long key : roundKeys) {
            long next = left ^ (mix(right ^ key) & halfMask);
            left = right;
            right = next;
        }
        return (left << halfBits) | right;
    }

    /** The SplitMix64 finalizer: a cheap full-avalanche 64-bit mix. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
