package io.bellows.bench;

import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Values cut at random offsets from one pool of random bytes generated up front, so that making a
 * value costs a copy, not a random number per byte. The bytes are incompressible; db_bench's
 * compressible values (--compression_ratio) have no counterpart: values are random bytes, which do not compress.
 * Not thread-safe: one per thread over a shared, never-written pool.
 */
final class ValueGenerator {
    /** Distinct start offsets in the pool; enough that consecutive values do not repeat. */
    private static final int SPREAD = 1 << 20;

    private final byte[] pool;
    private final int valueSize;
    private final int minSize;
    private final SplittableRandom random;

    ValueGenerator(byte[] pool, int valueSize, SplittableRandom random) {
        this(pool, valueSize, valueSize, random);
    }

    /** Values of a length uniform in {@code [minSize, valueSize]}. */
    ValueGenerator(byte[] pool, int minSize, int valueSize, SplittableRandom random) {
        if (pool.length < valueSize) {
            throw new IllegalArgumentException("pool of " + pool.length + " bytes is smaller than a value of "
                    + valueSize);
        }
        this.pool = pool;
        this.valueSize = valueSize;
        this.minSize = minSize;
        this.random = random;
    }

    /** The shared pool for values of {@code valueSize} bytes. */
    static byte[] pool(long seed, int valueSize) {
        byte[] pool = new byte[valueSize + SPREAD];
        new Random(seed).nextBytes(pool);
        return pool;
    }

    /** A new array: the engine may keep the arrays handed to put. */
    byte[] next() {
        int off = offset();
        int length = minSize == valueSize ? valueSize : minSize + random.nextInt(valueSize - minSize + 1);
        return Arrays.copyOfRange(pool, off, off + length);
    }

    /** Whether lengths vary (then {@link #next(byte[])} does not apply). */
    boolean variable() {
        return minSize != valueSize;
    }

    /** Fills {@code dst} (of valueSize bytes) for callers that copy it anyway, like WriteBatch. */
    void next(byte[] dst) {
        System.arraycopy(pool, offset(), dst, 0, valueSize);
    }

    private int offset() {
        return random.nextInt(pool.length - valueSize + 1);
    }
}
