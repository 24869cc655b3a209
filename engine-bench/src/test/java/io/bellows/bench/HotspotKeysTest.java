package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TriadOptions;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hotspot key distribution (TRIAD's WS1 and WS2) and the flags that set it. */
class HotspotKeysTest {
    @Test
    void theHotSetGetsItsShareOfTheOperations() {
        long seed = TestSeeds.seed("HotspotKeysTest");
        KeyChooser ws1 = KeyDistribution.HOTSPOT.chooser(100_000, new SplittableRandom(seed), () -> 100_000,
                new KeyDistribution.Hotspot(0.01, 0.99));
        int hot = 0;
        long max = 0;
        for (int i = 0; i < 100_000; i++) {
            long k = ws1.nextKey();
            assertTrue(k >= 0 && k < 100_000, Long.toString(k));
            hot += k < 1000 ? 1 : 0;
            max = Math.max(max, k);
        }
        assertEquals(0.99, hot / 100_000.0, 0.003, "1% of the keys get 99% of the operations");
        assertTrue(max >= 1000, "cold keys are drawn too");
    }

    @Test
    void flagsSetTheHotSet() {
        BenchOptions o = BenchFlags.parse("--distribution=hotspot", "--hotspot=0.01/0.99");
        assertEquals(KeyDistribution.HOTSPOT, o.distribution());
        assertEquals(new KeyDistribution.Hotspot(0.01, 0.99), o.hotspot());
        assertEquals(KeyDistribution.Hotspot.YCSB, BenchFlags.parse().hotspot());
        assertThrows(FlagException.class, () -> BenchFlags.parse("--hotspot=0/0.5"));
        assertThrows(FlagException.class, () -> BenchFlags.parse("--hotspot=0.1/1.5"));
        assertThrows(FlagException.class, () -> BenchFlags.parse("--hotspot=0.1"));
    }

    @Test
    void triadFlagsSetTriadOptions() {
        BenchOptions o = BenchFlags.parse("--compaction=TRIAD", "--triad_disk=false", "--triad_overlap_ratio=0.3",
                "--triad_l0_max_tables=8", "--triad_log=false");
        assertEquals(CompactionStyle.TRIAD, o.bellowsOptions().compaction());
        assertEquals(TriadOptions.builder().disk(false).overlapRatioThreshold(0.3).l0MaxTables(8).log(false).build(),
                o.bellowsOptions().compactionOptions());
    }
}
