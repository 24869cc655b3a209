package io.bellows.bench;

import java.util.SplittableRandom;

/**
 * YCSB's hotspot generator (HotspotIntegerGenerator): a fraction of the operations goes to the hot set,
 * the first fraction of the key numbers, uniformly; the rest goes uniformly to the other keys. TRIAD's
 * synthetic workloads (paper 004 §5.3) are hot sets: WS1 = 1% of the keys get 99% of the operations,
 * WS2 = 20% / 80%, WS3 uniform.
 */
final class HotspotKeys implements KeyChooser {
    private final long num;
    private final long hot;
    private final double hotOpFraction;
    private final SplittableRandom random;

    HotspotKeys(long num, double hotSetFraction, double hotOpFraction, SplittableRandom random) {
        this.num = num;
        this.hot = Math.max(1, Math.min(num, (long) (num * hotSetFraction)));
        this.hotOpFraction = hotOpFraction;
        this.random = random;
    }

    @Override
    public long nextKey() {
        if (hot == num || random.nextDouble() < hotOpFraction) {
            return random.nextLong(hot);
        }
        return hot + random.nextLong(num - hot);
    }
}
