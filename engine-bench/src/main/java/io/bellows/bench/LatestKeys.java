package io.bellows.bench;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * YCSB's "latest" distribution: the most recently inserted keys are the most popular. A zipfian rank
 * (rank 0 most popular) counts back from the newest key, so keys inserted during the run become hot
 * as soon as they exist.
 */
final class LatestKeys implements KeyChooser {
    private final LongSupplier records;
    private final ScrambledZipfianKeys ranks;

    /** @param records how many keys exist now: [0, records) */
    LatestKeys(LongSupplier records, SplittableRandom random) {
        this.records = records;
        this.ranks = new ScrambledZipfianKeys(1, random);
    }

    @Override
    public long nextKey() {
        long n = records.getAsLong();
        return n - 1 - ranks.nextRank() % n;
    }
}
