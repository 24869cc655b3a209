package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.metrics.EngineCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A table written through the filter cache leaves its BloomCluster's page runs there: the first lookups
 * of a new pile read no filter block from disk, and the runs cached are the file's own bytes.
 */
class ClusterWriteThroughTest {
    @Test
    void aNewClusterIsReadFromTheCacheItWasWrittenThrough() throws IOException {
        long seed = TestSeeds.seed("ClusterWriteThroughTest");
        Random rnd = new Random(seed);
        HTableFixture t = new HTableFixture(seed, 64);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            entries.add(new Entry(String.format("key%08d", i).getBytes(), i + 1, InternalKeys.KIND_PUT,
                    new byte[rnd.nextInt(60)], 0));
        }
        HTableWriter w = new HTableWriter(t.hash, 64, 16);
        for (Entry e : entries) {
            w.add(e.key(), e.seq(), e.kind(), e.value(), t.hash.hi(e.key()), t.hash.lo(e.key()));
        }
        HTableFixture.Mem file = new HTableFixture.Mem();
        FilterPageCache warm = new FilterPageCache(1 << 20);
        w.write(file, 9, List.of(), warm);
        t.bytes = file.out.toByteArray();

        EngineCounters counters = new EngineCounters();
        HTableReader fromCache = HTableReader.open(new HTableFixture.MemReadable(t.bytes), HTableFixture.PATH, 9, warm,
                counters);
        FilterPageCache cold = new FilterPageCache(1 << 20);
        HTableReader fromFile = HTableReader.open(new HTableFixture.MemReadable(t.bytes), HTableFixture.PATH, 9, cold,
                new EngineCounters());
        for (int b = 0; b < 64; b++) {
            assertTrue(fromCache.clusterBox(b, true).covers(9), "box of bucket " + b);
            assertTrue(fromFile.clusterBox(b, true).covers(9), "box of bucket " + b);
        }
        for (Entry e : entries) {
            long hi = t.hash.hi(e.key());
            assertTrue(fromCache.clusterBox(KeyHash.bucket(hi, 64), true).mayContain(9, KeyHash.bloom(t.hash.lo(e.key()))),
                    "the cached cluster knows every key");
        }
        assertEquals(0, counters.filterBlockReads.sum(), "no run of the new cluster was read from disk");
        int runs = 0;
        for (int run = 0; cold.get(9, run) != null; run++) {
            assertArrayEquals(cold.get(9, run).page(), warm.get(9, run).page(), "run " + run + " as the file holds it");
            runs++;
        }
        assertTrue(runs > 0 && warm.get(9, runs) == null, runs + " runs, each cached once");
    }
}
