package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The LSM_TRIE options: defaults (the paper's where it has one) and validation. */
class TrieOptionsTest {
    @Test
    void defaults() {
        EngineOptions o = EngineOptions.defaults();
        assertEquals(5, o.trieDepth());
        assertEquals(8, o.triePileTrigger());
        assertEquals(14, o.triePileSlowdown());
        assertEquals(20, o.triePileStop());
        assertEquals(2048, o.trieTableBuckets());
        assertEquals(16, o.trieBloomBitsPerKey());
        assertEquals(32L << 20, o.trieFilterCacheSize());
        assertEquals(0.3, o.trieGcGarbageRatio());
        assertTrue(o.trieHashSeed().isEmpty());
        assertEquals(42L, EngineOptions.builder().trieHashSeed(42).build().toBuilder().build().trieHashSeed().getAsLong());
    }

    @Test
    void outOfRangeValuesNameTheLimit() {
        EngineOptions.Builder b = EngineOptions.builder();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.trieDepth(1)).getMessage().contains("trieDepth"));
        assertThrows(IllegalArgumentException.class, () -> b.trieDepth(9));
        assertThrows(IllegalArgumentException.class, () -> b.trieTableBuckets(3));
        assertThrows(IllegalArgumentException.class, () -> b.trieTableBuckets(65001));
        assertThrows(IllegalArgumentException.class, () -> b.trieBloomBitsPerKey(0));
        assertThrows(IllegalArgumentException.class, () -> b.trieFilterCacheSize(-1));
        assertThrows(IllegalArgumentException.class, () -> b.trieGcGarbageRatio(0.01));
        assertThrows(IllegalArgumentException.class, () -> b.trieGcGarbageRatio(Double.NaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.triePileLimits(8, 4, 20));
        assertTrue(e.getMessage().contains("compaction (8) <= slowdown (4)"), e.getMessage());
    }
}
