package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.key.InternalKeys;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BlockCacheTest {
    private static Block block(int valueLength) {
        BlockBuilder b = new BlockBuilder(16);
        b.add("k".getBytes(), InternalKeys.trailer(1, InternalKeys.KIND_PUT), new byte[valueLength], 0, valueLength);
        int n = b.finish();
        return new Block(Arrays.copyOf(b.buffer(), n), n, Entries.PATH, 0);
    }

    @Test
    void disabledCacheHoldsNothing() {
        BlockCache cache = new BlockCache(0);
        cache.put(1, 0, block(10));
        assertNull(cache.get(1, 0));
        assertEquals(0, cache.usedBytes());
        assertThrows(IllegalArgumentException.class, () -> new BlockCache(-1));
    }

    @Test
    void keyedByFileAndOffset() {
        BlockCache cache = new BlockCache(1 << 20);
        Block a = block(10);
        Block b = block(20);
        cache.put(1, 100, a);
        cache.put(2, 100, b);
        assertSame(a, cache.get(1, 100));
        assertSame(b, cache.get(2, 100));
        assertNull(cache.get(1, 200));
        assertEquals(a.weight() + b.weight(), cache.usedBytes());
        cache.put(1, 100, b);
        assertEquals(2L * b.weight(), cache.usedBytes());
    }

    @Test
    void staysWithinCapacityAndAccountsEvictions() {
        long capacity = 64 << 10;
        BlockCache cache = new BlockCache(capacity);
        Block b = block(1000);
        for (int i = 0; i < 1000; i++) {
            cache.put(7, i * 2000L, b);
            assertTrue(cache.usedBytes() <= capacity, "used " + cache.usedBytes());
        }
        assertTrue(cache.usedBytes() > capacity / 2, "used " + cache.usedBytes());
        assertEquals(0, cache.usedBytes() % b.weight());
        long present = 0;
        for (int i = 0; i < 1000; i++) {
            present += cache.get(7, i * 2000L) != null ? b.weight() : 0;
        }
        assertEquals(present, cache.usedBytes());
    }
}
