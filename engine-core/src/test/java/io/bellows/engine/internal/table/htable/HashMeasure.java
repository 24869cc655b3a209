package io.bellows.engine.internal.table.htable;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;
import net.openhft.hashing.LongTupleHashFunction;

/**
 * The measurement behind KeyHash's choice (docs/formats/htable.md, "Hashing"): nanoseconds per
 * 128-bit hashkey of a 16-byte key for two seeded XXH3-64 hashes, one seeded XXH3-128 and SHA-1 (the
 * paper's). Not a test; run by hand:
 *
 * <pre>
 * mvn -q -o -pl engine-core test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp engine-core/target/test-classes:engine-core/target/classes:$(cat /tmp/cp.txt) \
 *     io.bellows.engine.internal.table.htable.HashMeasure
 * </pre>
 */
public final class HashMeasure {
    private static final int KEYS = 1 << 16;
    private static final int ROUNDS = 200;

    private HashMeasure() {}

    public static void main(String[] args) throws NoSuchAlgorithmException {
        byte[][] keys = new byte[KEYS][16];
        Random rnd = new Random(1);
        for (byte[] k : keys) {
            rnd.nextBytes(k);
        }
        KeyHash two = new KeyHash(12345);
        LongTupleHashFunction xx128 = LongTupleHashFunction.xx128(12345);
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        long[] out = new long[2];
        for (int pass = 0; pass < 3; pass++) {
            long sink = 0;
            long t0 = System.nanoTime();
            for (int r = 0; r < ROUNDS; r++) {
                for (byte[] k : keys) {
                    sink += two.hi(k) ^ two.lo(k);
                }
            }
            long t1 = System.nanoTime();
            for (int r = 0; r < ROUNDS; r++) {
                for (byte[] k : keys) {
                    xx128.hashBytes(k, out);
                    sink += out[0] ^ out[1];
                }
            }
            long t2 = System.nanoTime();
            for (int r = 0; r < ROUNDS / 10; r++) {
                for (byte[] k : keys) {
                    sha1.update((byte) 1);
                    sha1.update(k);
                    sink += sha1.digest()[0];
                }
            }
            long t3 = System.nanoTime();
            double n = (double) KEYS * ROUNDS;
            System.out.printf("pass %d: 2 x xxh3-64 %.1f ns, xxh3-128 %.1f ns, seeded sha-1 %.1f ns per key (%d)%n",
                    pass, (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / (n / 10), sink & 1);
        }
    }
}
