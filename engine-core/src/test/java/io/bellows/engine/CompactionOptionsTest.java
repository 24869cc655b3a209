package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Choosing a scheme on EngineOptions: by style with its defaults, or by its options type. */
class CompactionOptionsTest {
    @Test
    void everyStyleHasDefaultOptionsOfItsOwnStyle() {
        for (CompactionStyle style : CompactionStyle.values()) {
            CompactionOptions d = CompactionOptions.defaults(style);
            assertEquals(style, d.style());
            EngineOptions o = EngineOptions.builder().compaction(style).build();
            assertEquals(style, o.compaction());
            assertEquals(d, o.compactionOptions());
        }
    }

    @Test
    void leveledIsTheDefault() {
        EngineOptions o = EngineOptions.defaults();
        assertEquals(CompactionStyle.LEVELED, o.compaction());
        assertSame(LeveledOptions.defaults(), o.compactionOptions());
        assertEquals(LeveledOptions.defaults(), LeveledOptions.builder().build());
        assertEquals(LeveledOptions.defaults(), LeveledOptions.defaults().toBuilder().build());
        assertEquals(CompactionStyle.LEVELED, LeveledOptions.defaults().style());
        assertEquals(LeveledOptions.defaults().hashCode(), LeveledOptions.builder().build().hashCode());
        assertEquals("LeveledOptions{dynamicLevelBytes=true, priority=MIN_OVERLAPPING_RATIO}",
                LeveledOptions.defaults().toString());
        assertNotEquals(LeveledOptions.defaults(), FlsmOptions.defaults());
        LeveledOptions fixed = LeveledOptions.builder().dynamicLevelBytes(false).build();
        assertFalse(fixed.dynamicLevelBytes());
        assertNotEquals(LeveledOptions.defaults(), fixed);
        assertEquals(fixed, fixed.toBuilder().build());
        LeveledOptions roundRobin = LeveledOptions.builder().priority(CompactionPriority.ROUND_ROBIN).build();
        assertEquals(CompactionPriority.ROUND_ROBIN, roundRobin.priority());
        assertEquals(CompactionPriority.MIN_OVERLAPPING_RATIO, LeveledOptions.defaults().priority());
        assertNotEquals(LeveledOptions.defaults(), roundRobin);
        assertNotEquals(LeveledOptions.defaults().hashCode(), roundRobin.hashCode());
        assertEquals(roundRobin, roundRobin.toBuilder().build());
        assertThrows(NullPointerException.class, () -> LeveledOptions.builder().priority(null));
    }

    @Test
    void theLastCompactionCallWins() {
        FlsmOptions f = FlsmOptions.builder().maxTablesPerGuard(9).build();
        assertSame(f, EngineOptions.builder().compaction(CompactionStyle.LSM_TRIE).compaction(f).build()
                .compactionOptions());
        // Choosing a style by name selects its defaults, dropping options given before.
        assertEquals(FlsmOptions.defaults(), EngineOptions.builder().compaction(f).compaction(CompactionStyle.FLSM)
                .build().compactionOptions());
        assertSame(LeveledOptions.defaults(), EngineOptions.builder().compaction(f)
                .compaction(LeveledOptions.defaults()).build().compactionOptions());
    }

    @Test
    void nullIsRejected() {
        assertThrows(NullPointerException.class, () -> EngineOptions.builder().compaction((CompactionStyle) null));
        assertThrows(NullPointerException.class, () -> EngineOptions.builder().compaction((CompactionOptions) null));
    }
}
