package io.bellows.engine.internal.table.htable;

import net.openhft.hashing.LongHashFunction;

/**
 * The LSM-trie hashkey: 128 bits from two XXH3-64 hashes of the user key under two seeds derived from
 * the store's seed (recorded in the manifest and in every HTable), so keys crafted without the seed
 * cannot be piled into one container or bucket. The paper uses SHA-1; a seeded fast hash is as
 * uniform for this purpose and much cheaper (docs/formats/htable.md, "Hashing", gives the measurement).
 *
 * <p>Independent bit fields of {@code hi} and {@code lo} serve independent purposes (the paper's
 * Figure 8):
 *
 * <pre>
 *  hi: 63 ........ 40 | 39 .. 32 | 31 ........ 0
 *      trie path       | part     | bucket (multiply-shift onto [0, buckets))
 *      3 bits a level
 *  lo: 63 ........ 32 | 31 ........ 0
 *      HashMark order  | bloom probes (base; step = base rotated right by 17)
 * </pre>
 *
 * <p>Thread safety: immutable.
 */
public final class KeyHash {
    /** Levels the 24 trie bits address. */
    public static final int MAX_DEPTH = 8;
    private static final long SEED_MIX = 0x9E3779B97F4A7C15L;

    private final long seed;
    private final LongHashFunction high;
    private final LongHashFunction low;

    public KeyHash(long seed) {
        this.seed = seed;
        this.high = LongHashFunction.xx3(seed);
        this.low = LongHashFunction.xx3(Long.rotateLeft(seed * SEED_MIX, 31) ^ SEED_MIX);
    }

    public long seed() {
        return seed;
    }

    public long hi(byte[] key) {
        return high.hashBytes(key);
    }

    public long lo(byte[] key) {
        return low.hashBytes(key);
    }

    /** {@link #hi(byte[])} of the key in {@code b[off, off + len)}. */
    public long hi(byte[] b, int off, int len) {
        return high.hashBytes(b, off, len);
    }

    /** {@link #lo(byte[])} of the key in {@code b[off, off + len)}. */
    public long lo(byte[] b, int off, int len) {
        return low.hashBytes(b, off, len);
    }

    /** The child (0..7) a key descends to from a container at {@code level}. */
    public static int child(long hi, int level) {
        return (int) (hi >>> (61 - 3 * level)) & 7;
    }

    /** The first {@code 3 * level} trie bits: the path of the key's container at {@code level}. */
    public static int path(long hi, int level) {
        return level == 0 ? 0 : (int) (hi >>> (64 - 3 * level));
    }

    /** The home bucket of a key in a table of {@code buckets} buckets. */
    public static int bucket(long hi, int buckets) {
        return (int) (((hi & 0xffffffffL) * buckets) >>> 32);
    }

    /**
     * The key's order (HashMark) in {@code bucket}: the 32-bit infix rotated by the bucket id, so an
     * item moved out of one bucket for ranking high is unlikely to rank high again where it lands.
     * Compared unsigned.
     */
    public static int rank(long lo, int bucket) {
        return Integer.rotateLeft((int) (lo >>> 32), bucket & 31);
    }

    /** The 64-bit value a {@link io.bellows.engine.internal.table.BloomFilter} is built and probed with. */
    public static long bloom(long lo) {
        int base = (int) lo;
        int step = Integer.rotateRight(base, 17);
        return (long) step << 32 | (base & 0xffffffffL);
    }
}
