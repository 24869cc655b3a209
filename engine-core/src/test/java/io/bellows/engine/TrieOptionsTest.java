package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The LSM_TRIE options: defaults (the paper's where it has one), validation, value semantics. */
class TrieOptionsTest {
    @Test
    void defaults() {
        TrieOptions o = TrieOptions.defaults();
        assertEquals(CompactionStyle.LSM_TRIE, o.style());
        assertEquals(5, o.depth());
        assertEquals(8, o.pileTrigger());
        assertEquals(14, o.pileSlowdown());
        assertEquals(20, o.pileStop());
        assertEquals(8192, o.tableBuckets());
        assertEquals(16, o.bloomBitsPerKey());
        assertEquals(256L << 20, o.filterCacheSize());
        assertEquals(0.3, o.gcGarbageRatio());
        assertTrue(o.hashSeed().isEmpty());
        assertEquals(o, TrieOptions.builder().build());
        assertEquals(o, EngineOptions.builder().compaction(CompactionStyle.LSM_TRIE).build().compactionOptions());
        EngineOptions seeded = EngineOptions.builder().compaction(TrieOptions.builder().hashSeed(42).build()).build();
        assertEquals(42L, ((TrieOptions) seeded.toBuilder().build().compactionOptions()).hashSeed().getAsLong());
    }

    @Test
    void outOfRangeValuesNameTheLimit() {
        TrieOptions.Builder b = TrieOptions.builder();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.depth(1)).getMessage().contains("TrieOptions.depth"));
        assertThrows(IllegalArgumentException.class, () -> b.depth(9));
        assertThrows(IllegalArgumentException.class, () -> b.tableBuckets(3));
        assertThrows(IllegalArgumentException.class, () -> b.tableBuckets(65001));
        assertThrows(IllegalArgumentException.class, () -> b.bloomBitsPerKey(0));
        assertThrows(IllegalArgumentException.class, () -> b.filterCacheSize(-1));
        assertThrows(IllegalArgumentException.class, () -> b.gcGarbageRatio(0.01));
        assertThrows(IllegalArgumentException.class, () -> b.gcGarbageRatio(Double.NaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.pileLimits(8, 4, 20));
        assertTrue(e.getMessage().contains("compaction (8) <= slowdown (4)"), e.getMessage());
    }

    @Test
    void everyLimitIsNamedInItsMessage() {
        TrieOptions.Builder b = TrieOptions.builder();
        assertEquals("TrieOptions.depth must be between 2 and 8, got 9",
                assertThrows(IllegalArgumentException.class, () -> b.depth(9)).getMessage());
        assertEquals("TrieOptions.tableBuckets must be between 4 and 65000, got 3",
                assertThrows(IllegalArgumentException.class, () -> b.tableBuckets(3)).getMessage());
        assertEquals("TrieOptions.bloomBitsPerKey must be between 1 and 64, got 65",
                assertThrows(IllegalArgumentException.class, () -> b.bloomBitsPerKey(65)).getMessage());
        assertEquals("TrieOptions.filterCacheSize must be between 0 and 1099511627776, got -1",
                assertThrows(IllegalArgumentException.class, () -> b.filterCacheSize(-1)).getMessage());
        assertEquals("TrieOptions.gcGarbageRatio must be between 0.05 and 0.95, got 0.96",
                assertThrows(IllegalArgumentException.class, () -> b.gcGarbageRatio(0.96)).getMessage());
        assertEquals("TrieOptions.pileTrigger must be between 2 and 1000, got 1",
                assertThrows(IllegalArgumentException.class, () -> b.pileLimits(1, 14, 20)).getMessage());
        assertEquals("TrieOptions.pileSlowdown must be between 2 and 1000, got 1001",
                assertThrows(IllegalArgumentException.class, () -> b.pileLimits(8, 1001, 1001)).getMessage());
        assertEquals("TrieOptions.pileStop must be between 2 and 1000, got 1",
                assertThrows(IllegalArgumentException.class, () -> b.pileLimits(8, 14, 1)).getMessage());
        assertEquals("trie pile limits must satisfy compaction (8) <= slowdown (14) <= stop (10)",
                assertThrows(IllegalArgumentException.class, () -> b.pileLimits(8, 14, 10)).getMessage());
        assertEquals(TrieOptions.defaults(), b.build(), "a rejected value leaves the builder unchanged");
    }

    @Test
    void settersAndValueSemantics() {
        TrieOptions o = TrieOptions.builder().depth(3).pileLimits(4, 8, 12).tableBuckets(16).bloomBitsPerKey(12)
                .filterCacheSize(0).gcGarbageRatio(0.5).hashSeed(-7).build();
        assertEquals(3, o.depth());
        assertEquals(4, o.pileTrigger());
        assertEquals(8, o.pileSlowdown());
        assertEquals(12, o.pileStop());
        assertEquals(16, o.tableBuckets());
        assertEquals(12, o.bloomBitsPerKey());
        assertEquals(0, o.filterCacheSize());
        assertEquals(0.5, o.gcGarbageRatio());
        assertEquals(-7L, o.hashSeed().getAsLong());
        TrieOptions copy = o.toBuilder().build();
        assertEquals(o, copy);
        assertEquals(o.hashCode(), copy.hashCode());
        assertEquals(o.toString(), copy.toString());
        assertNotEquals(o, o.toBuilder().hashSeed(8).build());
        assertNotEquals(o, o.toBuilder().gcGarbageRatio(0.51).build());
        assertNotEquals(TrieOptions.defaults(), TrieOptions.builder().hashSeed(0).build(), "a fixed seed is not random");
        assertEquals("TrieOptions{depth=3, pileLimits=4/8/12, tableBuckets=16, bloomBitsPerKey=12, filterCacheSize=0,"
                + " gcGarbageRatio=0.5, hashSeed=-7}", o.toString());
        assertTrue(TrieOptions.defaults().toString().contains("hashSeed=random"), TrieOptions.defaults().toString());
        assertTrue(TrieOptions.defaults().toString().contains("tableBuckets=8192 (or the store's)"),
                TrieOptions.defaults().toString());
        assertFalse(TrieOptions.defaults().tableBucketsSet());
        assertTrue(TrieOptions.builder().tableBuckets(8192).build().tableBucketsSet());
        assertNotEquals(TrieOptions.defaults(), TrieOptions.builder().tableBuckets(8192).build(),
                "a set bucket count is checked against the store's");
        assertSame(TrieOptions.defaults(), CompactionOptions.defaults(CompactionStyle.LSM_TRIE));
    }

    @Test
    void engineOptionsCarryTheTrieOptions() {
        TrieOptions t = TrieOptions.builder().depth(4).build();
        EngineOptions o = EngineOptions.builder().compaction(t).build();
        assertEquals(CompactionStyle.LSM_TRIE, o.compaction());
        assertSame(t, o.compactionOptions());
        assertSame(t, o.toBuilder().build().compactionOptions());
        assertTrue(o.toString().contains(", trie{depth=4, piles=8/14/20, buckets=8192 or the store's, bloomBits=16, filterCache="
                + (256L << 20) + ", gcRatio=0.3}"), o.toString());
        assertTrue(!EngineOptions.defaults().toString().contains("trie{"), "a LEVELED store prints no trie options");
    }
}
