package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.BackgroundQuiet;
import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.ThreadAllocations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An LSM_TRIE get into the caller's buffer allocates nothing per table it probes: it finds each level's
 * pile, reads the filters of every table from the BloomCluster box of its newest table, and reads the
 * bucket from the block cache (sized here to hold the store, as the LEVELED test's blocks are cached), all
 * without garbage (docs/benchmarks.md, "Bytes allocated per get"). Counted with the JVM's per-thread
 * allocation counter; each count is of a second pass, since the caches' first passes grow their own
 * bookkeeping once (Caffeine's frequency sketch).
 */
class TrieGetAllocationTest {
    private static final int KEYS = 6000;
    private static final int GETS = 20_000;

    @TempDir
    Path dir;

    @Test
    void getsThroughPilesIntoTheCallersBufferAllocateNothing() throws Exception {
        ThreadAllocations.assumeCounted();
        byte[][] keys = new byte[KEYS][];
        byte[][] absent = new byte[1000][];
        byte[] value = new byte[100];
        try (Engine db = Engine.open(dir, EngineConfigs.small(CompactionStyle.LSM_TRIE, InMemoryCompaction.NONE)
                .compaction(EngineConfigs.smallTrie().hashSeed(7).build()).blockCacheSize(16 << 20).build())) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] = String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
                db.put(keys[i], value);
            }
            for (int i = 0; i < absent.length; i++) {
                absent[i] = ("absent" + i).getBytes(StandardCharsets.UTF_8);
            }
            db.flush();
            // Measured at rest: a compaction running beside the gets would have them read new tables' buckets.
            BackgroundQuiet.await(db);
            ReadOptions ro = ReadOptions.defaults();
            byte[] dst = new byte[128];
            long hits = 0;
            long misses = 0;
            for (int pass = 0; pass < 2; pass++) {
                long before = ThreadAllocations.allocated();
                for (int i = 0; i < GETS; i++) {
                    assertEquals(100, db.get(keys[i % keys.length], dst, 0, ro));
                }
                hits = ThreadAllocations.allocated() - before;
                before = ThreadAllocations.allocated();
                for (int i = 0; i < GETS; i++) {
                    assertEquals(-1, db.get(absent[i % absent.length], dst, 0, ro));
                }
                misses = ThreadAllocations.allocated() - before;
            }
            EngineStats stats = db.stats();
            System.out.println("TrieGetAllocationTest: hits " + hits + " B, misses " + misses + " B in " + GETS
                    + " gets each, tables probed per get " + stats.reads().tablesProbedPerGet() + ", " + stats.levels());
            long levelsWithTables = stats.levels().perLevel().stream().filter(l -> l.tables() > 0).count();
            assertTrue(levelsWithTables >= 2 && stats.reads().tablesProbedPerGet() > 2,
                    "the gets cross piles of several tables on several levels: " + stats.levels());
            // Nothing per get: the filter cache's hits take no recency node (Guava's took one per level).
            assertTrue(hits < 8L * GETS, hits + " bytes for " + GETS + " gets into a buffer");
            assertTrue(misses < 8L * GETS, misses + " bytes for " + GETS + " gets of absent keys");
        }
    }
}
