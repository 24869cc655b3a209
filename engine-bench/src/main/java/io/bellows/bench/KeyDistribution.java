package io.bellows.bench;

import java.util.Locale;
import java.util.SplittableRandom;

/** How overwrite, readrandom, seekrandom and deleterandom pick keys (--distribution). */
enum KeyDistribution {
    UNIFORM,
    /** YCSB's scrambled zipfian, theta 0.99: a few hot keys scattered over the key space. */
    ZIPFIAN;

    KeyChooser chooser(long num, SplittableRandom random) {
        return this == UNIFORM ? new UniformKeys(num, random) : new ScrambledZipfianKeys(num, random);
    }

    String flagName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
