package io.bellows.engine.internal.compaction.flsm;

import net.openhft.hashing.LongHashFunction;

/**
 * Decides which inserted keys are guards (paper §4.5, "Selecting Guards"). A key is a guard at level
 * i (1 &lt;= i &lt; numLevels) when the lowest {@code topLevelBits - i * bitDecrement} bits of its hash
 * are all ones; since the requirement only relaxes with depth, a guard of a level is a guard of every
 * deeper level. Level 0 holds whole flushes and has no guards.
 *
 * <p>The hash is XXH64 with the fixed seed {@link #SEED}. It is part of the store format: the same key
 * must be chosen on every run, so that a key re-inserted after its guard was deleted, or replayed from
 * the WAL after a crash, is chosen again at the same levels. Stateless and thread-safe.
 */
final class GuardHash {
    /** "PEBBLES1": fixed forever, see the class comment. */
    static final long SEED = 0x504542424c455331L;
    private static final LongHashFunction HASH = LongHashFunction.xx(SEED);

    private final int topLevelBits;
    private final int bitDecrement;
    /** Trailing one bits below which a key is a guard at no level. */
    private final int minBits;

    GuardHash(int topLevelBits, int bitDecrement, int numLevels) {
        this.topLevelBits = topLevelBits;
        this.bitDecrement = bitDecrement;
        this.minBits = topLevelBits - (numLevels - 1) * bitDecrement;
    }

    static long hash(byte[] key) {
        return HASH.hashBytes(key);
    }

    /** The shallowest level at which {@code key} is a guard, or -1 if it is a guard at no level. */
    int topLevel(byte[] key) {
        return topLevelOfHash(hash(key));
    }

    /** As {@link #topLevel(byte[])} for the key {@code buf[off, off + len)}. */
    int topLevel(byte[] buf, int off, int len) {
        return topLevelOfHash(HASH.hashBytes(buf, off, len));
    }

    private int topLevelOfHash(long h) {
        int ones = Long.numberOfTrailingZeros(~h);
        if (ones < minBits) {
            return -1;
        }
        if (ones >= topLevelBits - bitDecrement) {
            return 1;
        }
        // Smallest i with topLevelBits - i * bitDecrement <= ones (bitDecrement > 0 here, else minBits = top).
        int need = topLevelBits - ones;
        return (need + bitDecrement - 1) / bitDecrement;
    }

    /** Hash bits a level-{@code level} guard needs. */
    int bitsAt(int level) {
        return topLevelBits - level * bitDecrement;
    }
}
