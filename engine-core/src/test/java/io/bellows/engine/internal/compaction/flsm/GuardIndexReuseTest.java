package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.db.EngineProbe;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.util.Bytes;
import io.bellows.engine.internal.version.Version;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The guard layout an installed version's index reuses or updates from earlier versions (levels whose
 * guards did not change: kept whole, or only the guards that gained or lost tables redone) is the layout
 * a build from nothing gives, after every round of flushes, compactions, guard commits and retirements.
 */
class GuardIndexReuseTest {
    @Test
    void reusedLevelsMatchAFreshBuild() throws Exception {
        long seed = TestSeeds.seed("GuardIndexReuseTest");
        Random rnd = new Random(seed);
        EngineOptions o = EngineConfigs.small(CompactionStyle.FLSM, InMemoryCompaction.NONE).build();
        try (EngineImpl db = EngineImpl.open(Path.of("/db"), o, new CrashableFileSystem())) {
            FlsmScheme scheme = (FlsmScheme) EngineProbe.scheme(db);
            int levelsChecked = 0;
            for (int round = 0; round < 16; round++) {
                for (int i = 0; i < 1500; i++) {
                    byte[] key = ByteBuffer.allocate(8).putLong(rnd.nextInt(20_000)).array();
                    if (rnd.nextInt(10) == 0) {
                        db.delete(key);
                    } else {
                        db.put(key, new byte[20 + rnd.nextInt(60)]);
                    }
                }
                db.flush();
                while (!EngineProbe.settled(db)) {
                    Thread.sleep(10);
                }
                synchronized (scheme) {
                    Version v = EngineProbe.versions(db).current();
                    GuardIndex live = (GuardIndex) v.schemeIndex();
                    for (int level = 1; level < v.numLevels(); level++) {
                        GuardLevel fresh = GuardIndex.buildLevel(v, scheme.guards(), level);
                        GuardLevel kept = live.levels[level];
                        String at = "round " + round + " level " + level + ", seed=" + seed;
                        assertArrayEquals(fresh.keys, kept.keys, at);
                        assertArrayEquals(fresh.ids, kept.ids, at);
                        assertTrue(Arrays.deepEquals(fresh.tables, kept.tables), at);
                        assertArrayEquals(fresh.bytes, kept.bytes, at);
                        assertArrayEquals(fresh.depth, kept.depth, at);
                        assertEquals(fresh.totalBytes, kept.totalBytes, at);
                        assertEquals(fresh.tableCount, kept.tableCount, at);
                        for (int g = 0; g < fresh.guardCount(); g++) {
                            for (int t = 0; t < fresh.tables[g].length; t++) {
                                byte[] lo = fresh.tables[g][t].smallestKey;
                                long k0 = Bytes.prefixAt(lo, 0, lo.length, 0);
                                long k1 = Bytes.prefixAt(lo, 0, lo.length, 8);
                                assertEquals(fresh.covers(g, t, lo, k0, k1), kept.covers(g, t, lo, k0, k1), at);
                                assertTrue(kept.covers(g, t, lo, k0, k1), at);
                            }
                        }
                        levelsChecked += fresh.tableCount > 0 ? 1 : 0;
                    }
                }
            }
            assertTrue(levelsChecked > 8, "levels holding tables checked: " + levelsChecked);
        }
    }
}
