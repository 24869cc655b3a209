package io.bellows.bench;

/**
 * Fixed-width benchmark keys: {@code keySize} bytes whose tail holds the key number big-endian (the
 * last {@code min(8, keySize)} bytes) and whose head is zero, so that unsigned-lexicographic key order
 * is numeric order, as with db_bench.
 */
final class KeyCodec {
    private final int keySize;
    private final int counterBytes;

    KeyCodec(int keySize) {
        if (keySize < 1) {
            throw new IllegalArgumentException("key size must be at least 1, got " + keySize);
        }
        this.keySize = keySize;
        this.counterBytes = Math.min(8, keySize);
    }

    /** How many distinct key numbers fit in {@code keySize} bytes, capped at Long.MAX_VALUE. */
    static long capacity(int keySize) {
        return keySize >= 8 ? Long.MAX_VALUE : 1L << (8 * keySize);
    }

    int keySize() {
        return keySize;
    }

    byte[] encode(long n) {
        byte[] key = new byte[keySize];
        encode(n, key);
        return key;
    }

    /** Writes key {@code n} into {@code dst}, whose head must already be zero (it is never written). */
    void encode(long n, byte[] dst) {
        for (int i = 0; i < counterBytes; i++) {
            dst[keySize - 1 - i] = (byte) (n >>> (8 * i));
        }
    }

    long decode(byte[] key) {
        long n = 0;
        for (int i = keySize - counterBytes; i < keySize; i++) {
            n = (n << 8) | (key[i] & 0xFF);
        }
        return n;
    }
}
