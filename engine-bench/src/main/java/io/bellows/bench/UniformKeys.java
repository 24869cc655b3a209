package io.bellows.bench;

import java.util.SplittableRandom;

/** Every key in [0, num) equally likely. */
final class UniformKeys implements KeyChooser {
    private final long num;
    private final SplittableRandom random;

    UniformKeys(long num, SplittableRandom random) {
        this.num = num;
        this.random = random;
    }

    @Override
    public long nextKey() {
        return random.nextLong(num);
    }
}
