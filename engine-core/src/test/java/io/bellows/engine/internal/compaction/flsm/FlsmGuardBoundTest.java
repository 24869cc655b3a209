package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Guards as dense as one in two keys at every level (the option set that grew a stress store to
 * 19,276 tables of 1 KiB, docs/stress.md) cost tables in proportion to the data, not to the keys,
 * once guards holding under {@code guardMinBytes} at a level are retired there.
 */
class FlsmGuardBoundTest {
    private static final Path DIR = Path.of("/db");
    private static final long MIN_BYTES = 8 << 10;

    private static EngineOptions options(long minBytes) {
        return EngineConfigs.small(CompactionStyle.FLSM, InMemoryCompaction.NONE)
                .compaction(EngineConfigs.smallFlsm().guardBits(1, 0).guardMinBytes(minBytes).build()).build();
    }

    @Test
    void denseGuardsCostTablesInProportionToData() throws Exception {
        long seed = TestSeeds.seed("FlsmGuardBoundTest");
        Shape retired = run(seed, MIN_BYTES);
        Shape kept = run(seed, 0);
        System.out.println("seed=" + seed + ": guardMinBytes " + MIN_BYTES + ": " + retired + "; never retiring: " + kept);
        // Each guarded level holds at most bytes / MIN_BYTES guards with data, each up to maxTablesPerGuard (2)
        // tables deep plus the fragments a push adds before the guard is merged; L0 and the sentinels are extra.
        long bound = 3 * 3 * 2 * retired.tableBytes / MIN_BYTES + 3 * 8 + 12;
        assertTrue(retired.tables <= bound, "seed=" + seed + ": " + retired + ", bound " + bound + " tables");
        assertTrue(retired.guards <= 2 * bound, "seed=" + seed + ": " + retired + " guards");
        assertTrue(kept.tables > 4 * retired.tables, "seed=" + seed + ": dense guards without retirement: " + kept);
    }

    private record Shape(long tables, long tableBytes, int guards) {
        @Override
        public String toString() {
            return tables + " tables of " + tableBytes + " bytes, " + guards + " guards";
        }
    }

    private static Shape run(long seed, long minBytes) throws Exception {
        Random rnd = new Random(seed);
        EngineOptions o = options(minBytes);
        CrashableFileSystem fs = new CrashableFileSystem();
        Map<Integer, byte[]> model = new HashMap<>();
        long tables;
        long bytes;
        try (EngineImpl db = EngineImpl.open(DIR, o, fs)) {
            for (int i = 0; i < 20_000; i++) {
                int k = rnd.nextInt(4000);
                if (rnd.nextInt(10) == 0) {
                    db.delete(key(k));
                    model.remove(k);
                } else {
                    byte[] v = new byte[1 + rnd.nextInt(120)];
                    rnd.nextBytes(v);
                    db.put(key(k), v);
                    model.put(k, v);
                }
            }
            db.flush();
            FlsmStore.awaitQuiet(db);
            for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), db.get(key(e.getKey())), "seed=" + seed);
            }
            EngineStats.Levels levels = db.stats().levels();
            tables = levels.perLevel().stream().mapToLong(EngineStats.Level::tables).sum();
            bytes = levels.liveTableBytes();
        }
        FlsmStore store = FlsmStore.open(DIR, fs, o);
        store.checkInvariants();
        int guards;
        synchronized (store.scheme) {
            guards = 0;
            for (GuardSet.Guard g : store.scheme.guards().all().values()) {
                guards += g.top < o.numLevels() ? 1 : 0;
            }
        }
        return new Shape(tables, bytes, guards);
    }

    private static byte[] key(int k) {
        return String.format("key%06d", k).getBytes();
    }
}
