package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** EngineStats.report(): the multi-line stats dump, on crafted figures and on a live store. */
class StatsReportTest {
    @Test
    void craftedFiguresPrintAsTheyAre() {
        EngineStats s = new EngineStats(
                new EngineStats.Io(4_000_000, 4_100_000, 2_000_000, 3_000_000, 4_000_000, "direct", 20_000),
                new EngineStats.Reads(100, 130, 20, 60, 0, 7),
                new EngineStats.Background(3, 2, 0, 1, 5_000_000, 1_500_000, 0,
                        new EngineStats.StallCauses(1_000_000, 3_000_000, 1_000_000, 0)),
                new EngineStats.MemStore(1_000_000, 2_000_000, 0, new EngineStats.Segments(1_000_000, 2_000_000, 10),
                        new EngineStats.Segments(0, 0, 0), new EngineStats.Segments(0, 0, 0), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0, 0, 0),
                new EngineStats.Levels(List.of(new EngineStats.Level(0, 1, 1_000_000, 800_000),
                        new EngineStats.Level(1, 3, 3_000_000, 2_400_000))),
                42, EngineStats.Recovery.NONE, Map.of("l0.deferred", 2.0, "l0.overlap", 0.25));
        String r = s.report();
        List<String> lines = r.lines().toList();
        assertEquals("** Bellows stats **", lines.get(0));
        assertEquals("L0            1          1.0   25.0%", lines.get(2));
        assertEquals("L1            3          3.0   75.0%", lines.get(3));
        assertEquals("Sum           4          4.0", lines.get(4));
        assertTrue(r.contains("Amplification: write 3.00 (RocksDB's: per flushed byte), total 2.53 per user byte, space 1.25"
                + " (live table bytes / user data they hold), 1.33 (RocksDB's: / deepest level's)"), r);
        assertTrue(r.contains("compaction read 3.0 MB written 4.0 MB, manifest 0.0 MB"), r);
        assertTrue(r.contains("Reads: 100 gets, 1.30 tables/get, block cache hit rate 75.0% (60 hits, 20 reads)"), r);
        assertTrue(r.contains("pending compaction 1.5 MB"), r);
        assertTrue(r.contains("Stalls: 1 writes, 5 ms (delayed 1 ms, stopped by compaction 3 ms, waiting for a flush 1 ms,"
                + " for memory 0 ms)"), r);
        assertTrue(r.contains("Scheme: l0.deferred=2 l0.overlap=0.250"), r);
        assertTrue(r.endsWith("Last sequence: 42\n"), r);
    }

    @Test
    void aFreshStoreShowsDashesWhereNothingIsDefined(@TempDir Path dir) {
        try (Engine db = Engine.open(dir, EngineOptions.defaults())) {
            String r = db.stats().report();
            assertTrue(r.contains("Amplification: write - (RocksDB's: per flushed byte), total - per user byte, space -"), r);
            assertTrue(r.contains("0 gets, - tables/get, block cache hit rate -"), r);
            db.put("k".getBytes(), "v".getBytes());
            db.flush();
            assertTrue(db.stats().report().contains("L0            1"), db.stats().report());
        }
    }
}
