package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * LSM_TRIE lookups read about one data block (bucket) per get, whatever the depth of the trie (paper
 * §2.4: 1.01 bucket reads per lookup): with no block cache every bucket a get reads is counted, and a
 * get of a present key reads at most 1.1 on average, of an absent key (filters answering) almost none.
 * With a block cache, buckets read again are served from it.
 */
class TrieReadCostTest {
    private static final Path DIR = Path.of("/db");

    @Test
    void aGetReadsAboutOneBucket() {
        long seed = TestSeeds.seed("TrieReadCostTest");
        Random rnd = new Random(seed);
        // 64-bucket tables, three levels, small piles: 60,000 entries fill the first two.
        TrieOptions trie = TrieOptions.builder().tableBuckets(64).depth(3).pileLimits(4, 8, 12).build();
        EngineOptions o = EngineOptions.builder().compaction(CompactionStyle.LSM_TRIE).compaction(trie)
                .memstoreSize(256 << 10).blockCacheSize(0).build();
        int keys = 60_000;
        byte[][] values = new byte[keys][];
        try (EngineImpl db = EngineImpl.open(DIR, o, new CrashableFileSystem())) {
            for (int k = 0; k < keys; k++) {
                values[k] = new byte[1 + rnd.nextInt(200)];
                rnd.nextBytes(values[k]);
                db.put(key(k), values[k]);
            }
            db.flush();
            TrieEngineTest.waitForCompactions(db);
            EngineStats.Levels levels = db.stats().levels();
            assertTrue(levels.get(0).tables() > 0 && levels.get(1).tables() > 0, "gets probe two levels: " + levels);
            EngineStats.Reads before = db.stats().reads();
            int gets = 5000;
            for (int i = 0; i < gets; i++) {
                int k = rnd.nextInt(keys);
                assertArrayEquals(values[k], db.get(key(k)), "seed=" + seed);
            }
            EngineStats.Reads after = db.stats().reads();
            double perGet = (double) (after.blockReads() - before.blockReads()) / gets;
            System.out.println("seed=" + seed + ": " + levels + "; data blocks per get " + perGet + ", filter blocks "
                    + (double) (after.filterBlockReads() - before.filterBlockReads()) / gets);
            assertTrue(perGet >= 1 && perGet <= 1.1, "data block reads per get " + perGet + ", seed=" + seed);
            before = after;
            for (int i = 0; i < gets; i++) {
                assertNull(db.get(("absent-" + i).getBytes()));
            }
            after = db.stats().reads();
            double perMiss = (double) (after.blockReads() - before.blockReads()) / gets;
            assertTrue(perMiss <= 0.05, "data block reads per absent get " + perMiss + ", seed=" + seed);
        }
    }

    @Test
    void bucketsReadAgainComeFromTheBlockCache() {
        TrieOptions trie = TrieOptions.builder().tableBuckets(64).depth(3).build();
        EngineOptions o = EngineOptions.builder().compaction(CompactionStyle.LSM_TRIE).compaction(trie).build();
        try (EngineImpl db = EngineImpl.open(DIR, o, new CrashableFileSystem())) {
            for (int k = 0; k < 2000; k++) {
                db.put(key(k), ("value-" + k).getBytes());
            }
            db.flush();
            for (int k = 0; k < 2000; k++) {
                db.get(key(k));
            }
            EngineStats.Reads before = db.stats().reads();
            for (int k = 0; k < 2000; k++) {
                assertArrayEquals(("value-" + k).getBytes(), db.get(key(k)));
            }
            EngineStats.Reads after = db.stats().reads();
            assertTrue(after.blockReads() == before.blockReads(), "no bucket read from the file again");
            assertTrue(after.blockCacheHits() - before.blockCacheHits() >= 2000, "every get hit the cache");
        }
    }

    private static byte[] key(int k) {
        return String.format("user%012d", k).getBytes();
    }
}
