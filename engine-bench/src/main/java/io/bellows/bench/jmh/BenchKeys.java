package io.bellows.bench.jmh;

import java.util.SplittableRandom;

/** Keys like bellows-bench's: 16 bytes, the key number big-endian in the tail, so order is numeric. */
final class BenchKeys {
    static final int KEY_SIZE = 16;

    private BenchKeys() {}

    static byte[] key(long n) {
        byte[] k = new byte[KEY_SIZE];
        for (int i = 0; i < 8; i++) {
            k[KEY_SIZE - 1 - i] = (byte) (n >>> (8 * i));
        }
        return k;
    }

    /** Keys 0 .. count-1 in ascending order. */
    static byte[][] ascending(int count) {
        byte[][] keys = new byte[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = key(i);
        }
        return keys;
    }

    static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < size; i++) {
            v[i] = (byte) r.nextInt();
        }
        return v;
    }
}
