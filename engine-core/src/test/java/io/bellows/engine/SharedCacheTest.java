package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engines sharing one {@link SharedCache}: fresh stores number their tables alike, so a cache keyed by file
 * number alone would hand one engine the other's blocks; each must read its own values, and the blocks of
 * both stay within the one bound.
 */
class SharedCacheTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void enginesSharingACacheReadOnlyTheirOwnBlocksWithinOneBound() {
        SharedCache cache = SharedCache.create(256 << 10);
        EngineOptions o = EngineOptions.builder().sharedCache(cache).blockSize(1024).build();
        assertTrue(o.toString().contains("sharedCache=SharedCache{capacity=262144"), o.toString());
        try (Engine a = Engine.open(dir.resolve("a"), o); Engine c = Engine.open(dir.resolve("c"), o)) {
            for (int i = 0; i < 5000; i++) {
                byte[] key = b(String.format("key%06d", i));
                a.put(key, b("a-value-" + i));
                c.put(key, b("c-value-" + i));
            }
            a.flush();
            c.flush();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < 5000; i += 7) {
                    byte[] key = b(String.format("key%06d", i));
                    assertArrayEquals(b("a-value-" + i), a.get(key), "engine a, key " + i);
                    assertArrayEquals(b("c-value-" + i), c.get(key), "engine c, key " + i);
                }
            }
            assertTrue(cache.usedBytes() > 0, "both engines' blocks are in the cache");
            assertTrue(cache.usedBytes() <= cache.capacityBytes(), cache.toString());
        }
    }

    @Test
    void capacityOutsideItsLimitsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharedCache.create(0));
        assertTrue(e.getMessage().contains("between 1 byte and 1 TiB"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SharedCache.create((1L << 40) + 1));
    }
}
