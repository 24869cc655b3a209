package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * YCSB's scrambled zipfian distribution with theta 0.99: a zipfian rank is drawn over a fixed space
 * of 10^10 items, then FNV-1a hashed and reduced modulo {@code num}, so the popular keys are
 * scattered over the key space instead of clustered at its start, and the skew does not depend on
 * {@code num}. The most popular key is drawn with probability about 1 / zeta(10^10, 0.99) = 3.8%.
 *
 * <p>Adapted from YCSB's {@code ZipfianGenerator} and {@code ScrambledZipfianGenerator}, which follow
 * Gray et al., "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD 1994). Key
 * differences: theta and the item space are fixed, so zeta(n) is the precomputed constant YCSB uses
 * and nothing is recomputed; the random source is the caller's seeded {@link SplittableRandom}, so a
 * run is reproducible; the item space is exactly 10^10 (YCSB's min..max passes 10^10 + 1, and later
 * YCSB versions raised the count to 10^16 while keeping zeta of 10^10).
 */
final class ScrambledZipfianKeys implements KeyChooser {
    static final double THETA = 0.99;
    static final long ITEM_COUNT = 10_000_000_000L;
    /** zeta(ITEM_COUNT, THETA) = sum over i in 1..ITEM_COUNT of 1 / i^THETA, as published by YCSB. */
    static final double ZETAN = 26.46902820178302;

    private static final double ALPHA = 1.0 / (1.0 - THETA);
    private static final double ZETA2 = 1.0 + Math.pow(0.5, THETA);
    private static final double ETA = (1.0 - Math.pow(2.0 / ITEM_COUNT, 1.0 - THETA)) / (1.0 - ZETA2 / ZETAN);

    private static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    private static final long FNV_PRIME_64 = 1099511628211L;

    private final long num;
    private final SplittableRandom random;

    ScrambledZipfianKeys(long num, SplittableRandom random) {
        if (num < 1) {
            throw new IllegalArgumentException("num must be at least 1, got " + num);
        }
        this.num = num;
        this.random = random;
    }

    @Override
    public long nextKey() {
        // NB: YCSB takes Math.abs of the hash, which stays negative for Long.MIN_VALUE; floorMod keeps
        // the same mapping everywhere else and is never negative.
        return Math.floorMod(Math.abs(fnvHash64(nextRank())), num);
    }

    /** A zipfian rank in [0, ITEM_COUNT): 0 is the most popular, then 1, and so on. */
    long nextRank() {
        double u = random.nextDouble();
        double uz = u * ZETAN;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < ZETA2) {
            return 1;
        }
        return Math.min(ITEM_COUNT - 1, (long) (ITEM_COUNT * Math.pow(ETA * u - ETA + 1, ALPHA)));
    }

    /** YCSB's FNV-1a over the eight bytes of {@code value}, least significant first. */
    static long fnvHash64(long value) {
        long hash = FNV_OFFSET_BASIS_64;
        long v = value;
        for (int i = 0; i < 8; i++) {
            hash ^= v & 0xFF;
            hash *= FNV_PRIME_64;
            v >>= 8;
        }
        return hash;
    }
}
