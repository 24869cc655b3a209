package io.bellows.bench;

import io.bellows.engine.TestSeeds;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyCodecTest {
    @Test
    void numberIsBigEndianInTheTailAfterAZeroHead() {
        KeyCodec codec = new KeyCodec(12);
        byte[] key = codec.encode(0x0102030405060708L);
        assertArrayEquals(new byte[] {0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, key);
        assertEquals(0x0102030405060708L, codec.decode(key));
    }

    @Test
    void shortKeysKeepTheLowBytes() {
        KeyCodec codec = new KeyCodec(2);
        assertArrayEquals(new byte[] {(byte) 0xAB, (byte) 0xCD}, codec.encode(0xABCD));
        assertEquals(65536, KeyCodec.capacity(2));
        assertEquals(Long.MAX_VALUE, KeyCodec.capacity(8));
    }

    @Test
    void unsignedByteOrderIsNumericOrder() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("KeyCodecTest.unsignedByteOrderIsNumericOrder");
        SplittableRandom random = new SplittableRandom(seed);
        for (int keySize : new int[] {3, 8, 16, 40}) {
            KeyCodec codec = new KeyCodec(keySize);
            long bound = Math.min(KeyCodec.capacity(keySize), 1L << 40);
            for (int i = 0; i < 2000; i++) {
                long a = random.nextLong(bound);
                long b = random.nextLong(bound);
                int bytes = Integer.signum(Arrays.compareUnsigned(codec.encode(a), codec.encode(b)));
                assertEquals(Long.signum(Long.compare(a, b)), bytes, "keySize " + keySize + ": " + a + " vs " + b);
                assertEquals(a, codec.decode(codec.encode(a)));
            }
            // Neighbours across byte boundaries, where a carry changes the most bytes.
            assertTrue(Arrays.compareUnsigned(codec.encode(255), codec.encode(256)) < 0);
            assertTrue(Arrays.compareUnsigned(codec.encode(65535), codec.encode(65536)) < 0);
        }
    }

    @Test
    void encodingIntoAScratchKeyMatchesAFreshOne() {
        KeyCodec codec = new KeyCodec(16);
        byte[] scratch = new byte[16];
        codec.encode(Long.MAX_VALUE, scratch);
        codec.encode(42, scratch);
        assertArrayEquals(codec.encode(42), scratch);
    }

    @Test
    void emptyKeysAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new KeyCodec(0));
    }
}
