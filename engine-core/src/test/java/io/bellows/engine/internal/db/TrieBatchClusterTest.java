package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.table.htable.ClusterBox;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The BloomCluster of a flush's batch is written once, in its last table (the newest of the pile):
 * that table's cluster covers the whole pile, the batch's other tables cluster their own filters only,
 * and gets still read each present key's bucket once and absent keys' buckets almost never.
 */
class TrieBatchClusterTest {
    private static final Path DIR = Path.of("/db");

    @Test
    void onlyTheLastTableOfABatchClustersThePile() throws IOException {
        // 8-bucket tables (about 31 KB of items each); the default pile trigger (7.2 tables' worth) is not
        // reached by the two flushes below, so the root pile keeps both batches.
        TrieOptions trie = TrieOptions.builder().tableBuckets(8).depth(3).hashSeed(7).build();
        EngineOptions o = EngineOptions.builder().compaction(CompactionStyle.LSM_TRIE).compaction(trie)
                .memstoreSize(1 << 20).blockCacheSize(0).build();
        try (EngineImpl db = EngineImpl.open(DIR, o, new CrashableFileSystem())) {
            int first = 400;
            int total = 1700;
            for (int k = 0; k < total; k++) {
                if (k == first) {
                    db.flush();
                }
                db.put(key(k), value(k));
            }
            db.flush();
            TrieEngineTest.waitForCompactions(db);
            Version v = db.versions().acquireCurrent();
            try {
                List<FileMeta> pile = new ArrayList<>(v.files(0));
                assertTrue(pile.size() >= 5, "two batches of several tables in the root: " + pile);
                pile.sort(Comparator.comparingLong(f -> f.number));
                // A batch's tables share their stamp (the maximum sequence recorded for every table).
                long firstStamp = pile.get(0).maxSequence;
                List<Long> older = new ArrayList<>();
                int batches = 0;
                for (int i = 0; i < pile.size(); i++) {
                    FileMeta f = pile.get(i);
                    boolean last = i == pile.size() - 1 || pile.get(i + 1).maxSequence != f.maxSequence;
                    HTableReader r = db.tables().reader(f, HTableReader.class);
                    for (int column = 0; column < r.clusterColumns(); column++) {
                        ClusterBox box = r.clusterBox(column, false);
                        assertTrue(box.covers(f.number), "a table's cluster covers the table itself");
                        for (long n : older) {
                            assertEquals(last, box.covers(n), "table " + f.number + " (last of its batch: " + last
                                    + ") covering older table " + n);
                        }
                    }
                    older.add(f.number);
                    if (last) {
                        batches++;
                    }
                }
                assertEquals(2, batches, "two flushes, two batches; first stamp " + firstStamp);
            } finally {
                v.release();
            }
            EngineStats.Reads before = db.stats().reads();
            for (int k = 0; k < total; k++) {
                assertArrayEquals(value(k), db.get(key(k)));
            }
            EngineStats.Reads after = db.stats().reads();
            double perGet = (double) (after.blockReads() - before.blockReads()) / total;
            assertTrue(perGet >= 1 && perGet <= 1.1, "bucket reads per get " + perGet);
            before = after;
            for (int k = 0; k < total; k++) {
                assertNull(db.get(("absent" + k).getBytes()));
            }
            after = db.stats().reads();
            double perMiss = (double) (after.blockReads() - before.blockReads()) / total;
            assertTrue(perMiss <= 0.05, "bucket reads per absent get " + perMiss);
        }
    }

    private static byte[] key(int k) {
        return String.format("key%07d", k).getBytes();
    }

    private static byte[] value(int k) {
        byte[] v = new byte[100];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) (k * 31 + i);
        }
        return v;
    }
}
