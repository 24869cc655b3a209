package io.bellows.bench;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/** How workloads pick existing keys (--distribution, --request_distribution). */
enum KeyDistribution {
    UNIFORM,
    /** YCSB's scrambled zipfian, theta 0.99: a few hot keys scattered over the key space. */
    ZIPFIAN,
    /** YCSB's latest: zipfian counted back from the newest key, following inserts. */
    LATEST;

    /**
     * A chooser over [0, num) for uniform and zipfian; over [0, records) for latest, where records
     * grows as workloads insert.
     */
    KeyChooser chooser(long num, SplittableRandom random, LongSupplier records) {
        switch (this) {
            case UNIFORM:
                return new UniformKeys(num, random);
            case ZIPFIAN:
                return new ScrambledZipfianKeys(num, random);
            default:
                return new LatestKeys(records, random);
        }
    }

    KeyChooser chooser(long num, SplittableRandom random) {
        return chooser(num, random, () -> num);
    }

    String flagName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
