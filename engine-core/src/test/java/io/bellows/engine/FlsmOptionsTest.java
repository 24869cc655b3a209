package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The FLSM options: defaults (PebblesDB's), validation, value semantics, the guard-bit check of EngineOptions. */
class FlsmOptionsTest {
    @Test
    void defaults() {
        FlsmOptions o = FlsmOptions.defaults();
        assertEquals(CompactionStyle.FLSM, o.style());
        assertEquals(27, o.topLevelBits());
        assertEquals(2, o.bitDecrement());
        assertEquals(4, o.maxTablesPerGuard());
        assertEquals(64L << 20, o.guardMaxBytes());
        assertEquals(256L << 10, o.guardMinBytes());
        assertEquals(10, o.seekCompactionThreshold());
        assertFalse(o.parallelSeeks());
        assertEquals(o, FlsmOptions.builder().build());
        assertEquals(o, EngineOptions.builder().compaction(CompactionStyle.FLSM).build().compactionOptions());
        assertSame(o, CompactionOptions.defaults(CompactionStyle.FLSM));
    }

    @Test
    void outOfRangeValuesNameTheLimit() {
        FlsmOptions.Builder b = FlsmOptions.builder();
        assertEquals("FlsmOptions.topLevelBits must be between 1 and 62, got 0",
                assertThrows(IllegalArgumentException.class, () -> b.guardBits(0, 2)).getMessage());
        assertEquals("FlsmOptions.topLevelBits must be between 1 and 62, got 63",
                assertThrows(IllegalArgumentException.class, () -> b.guardBits(63, 2)).getMessage());
        assertEquals("FlsmOptions.bitDecrement must be between 0 and 16, got 17",
                assertThrows(IllegalArgumentException.class, () -> b.guardBits(27, 17)).getMessage());
        assertEquals("FlsmOptions.bitDecrement must be between 0 and 16, got -1",
                assertThrows(IllegalArgumentException.class, () -> b.guardBits(27, -1)).getMessage());
        assertEquals("FlsmOptions.maxTablesPerGuard must be between 1 and 1000, got 0",
                assertThrows(IllegalArgumentException.class, () -> b.maxTablesPerGuard(0)).getMessage());
        assertEquals("FlsmOptions.maxTablesPerGuard must be between 1 and 1000, got 1001",
                assertThrows(IllegalArgumentException.class, () -> b.maxTablesPerGuard(1001)).getMessage());
        assertEquals("FlsmOptions.guardMaxBytes must be between 65536 and 1099511627776, got 65535",
                assertThrows(IllegalArgumentException.class, () -> b.guardMaxBytes(65535)).getMessage());
        assertEquals("FlsmOptions.guardMaxBytes must be between 65536 and 1099511627776, got 1099511627777",
                assertThrows(IllegalArgumentException.class, () -> b.guardMaxBytes((1L << 40) + 1)).getMessage());
        assertEquals("FlsmOptions.guardMinBytes must be between 0 and 1099511627776, got -1",
                assertThrows(IllegalArgumentException.class, () -> b.guardMinBytes(-1)).getMessage());
        assertEquals("FlsmOptions.seekCompactionThreshold must be between 0 and 1000000, got -1",
                assertThrows(IllegalArgumentException.class, () -> b.seekCompactionThreshold(-1)).getMessage());
        assertEquals("FlsmOptions.seekCompactionThreshold must be between 0 and 1000000, got 1000001",
                assertThrows(IllegalArgumentException.class, () -> b.seekCompactionThreshold(1_000_001)).getMessage());
        assertEquals(FlsmOptions.defaults(), b.build(), "a rejected value leaves the builder unchanged");
    }

    @Test
    void guardBitsMustLeaveTheDeepestLevelAtLeastOneBit() {
        FlsmOptions tight = FlsmOptions.builder().guardBits(13, 2).build();
        // numLevels 7 (the default): level 6 needs 13 - 6 * 2 = 1 bit, the least allowed.
        assertEquals(13, ((FlsmOptions) EngineOptions.builder().compaction(tight).build().compactionOptions())
                .topLevelBits());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().compaction(tight).numLevels(8).build());
        assertEquals("FLSM guard bits: level 7 would need -1 hash bits; topLevelBits (13) - (numLevels - 1) (7)"
                + " * bitDecrement (2) must be at least 1", e.getMessage());
        // Other schemes do not use guard bits, so numLevels is free there.
        EngineOptions.builder().compaction(CompactionStyle.LEVELED).numLevels(20).build();
        assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().compaction(CompactionStyle.FLSM).numLevels(15).build());
    }

    @Test
    void settersAndValueSemantics() {
        FlsmOptions o = FlsmOptions.builder().guardBits(21, 3).maxTablesPerGuard(6).guardMaxBytes(32L << 20)
                .seekCompactionThreshold(0).parallelSeeks(true).build();
        assertEquals(21, o.topLevelBits());
        assertEquals(3, o.bitDecrement());
        assertEquals(6, o.maxTablesPerGuard());
        assertEquals(32L << 20, o.guardMaxBytes());
        assertEquals(0, o.seekCompactionThreshold());
        assertTrue(o.parallelSeeks());
        FlsmOptions copy = o.toBuilder().build();
        assertEquals(o, copy);
        assertEquals(o.hashCode(), copy.hashCode());
        assertNotEquals(o, o.toBuilder().parallelSeeks(false).build());
        assertNotEquals(o, o.toBuilder().guardBits(21, 2).build());
        assertNotEquals(o, o.toBuilder().guardMinBytes(0).build());
        assertNotEquals(o, TrieOptions.defaults());
        assertEquals("FlsmOptions{guardBits=21/3, maxTablesPerGuard=6, guardMaxBytes=33554432, guardMinBytes=262144,"
                + " seekCompactionThreshold=0, parallelSeeks=true}", o.toString());
    }

    @Test
    void engineOptionsBuiltWithFlsmOptionsReportFlsm() {
        FlsmOptions f = FlsmOptions.builder().maxTablesPerGuard(6).parallelSeeks(true).build();
        EngineOptions o = EngineOptions.builder().compaction(f).build();
        assertEquals(CompactionStyle.FLSM, o.compaction());
        assertSame(f, o.compactionOptions());
        assertSame(f, o.toBuilder().build().compactionOptions());
        assertTrue(o.toString().contains("compaction=FLSM"), o.toString());
        assertTrue(o.toString().contains(", flsm=27/2/6/" + (64L << 20) + "/" + (256L << 10) + "/10/parallel-seeks,"),
                o.toString());
        assertFalse(EngineOptions.defaults().toString().contains("flsm="), "a LEVELED store prints no FLSM options");
    }
}
