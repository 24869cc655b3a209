package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class GuardHashTest {
    private static byte[] key(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    @Test
    void topLevelIsTheShallowestLevelWhoseBitsTheHashHas() {
        GuardHash h = new GuardHash(12, 2, 6);
        for (long n = 0; n < 200_000; n++) {
            byte[] k = key(n);
            int ones = Long.numberOfTrailingZeros(~GuardHash.hash(k));
            int top = h.topLevel(k);
            for (int level = 1; level <= 5; level++) {
                boolean guard = ones >= h.bitsAt(level);
                assertEquals(guard, top >= 1 && top <= level, "key " + n + " at L" + level);
            }
        }
    }

    @Test
    void guardDensityFollowsTheBits() {
        GuardHash h = new GuardHash(12, 2, 6);
        int[] perLevel = new int[6];
        int n = 400_000;
        for (long i = 0; i < n; i++) {
            int top = h.topLevel(key(i));
            for (int level = Math.max(top, 1); top > 0 && level <= 5; level++) {
                perLevel[level]++;
            }
        }
        for (int level = 1; level <= 5; level++) {
            double expected = n / Math.pow(2, h.bitsAt(level));
            assertTrue(Math.abs(perLevel[level] - expected) < 5 * Math.sqrt(expected) + 2,
                    "L" + level + ": " + perLevel[level] + " guards, expected about " + expected);
        }
    }

    @Test
    void theSeededHashIsStable() {
        // Part of the store format: a guard chosen before a restart must be chosen again after it.
        assertEquals(GuardHash.hash(key(42)), GuardHash.hash(key(42)));
        assertEquals(0x504542424c455331L, GuardHash.SEED);
    }
}
