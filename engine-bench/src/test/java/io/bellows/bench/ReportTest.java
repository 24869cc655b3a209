package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
    private static final EngineStats STATS = new EngineStats(new EngineStats.Io(1000, 1000, 400, 0, 800, "buffered"),
            new EngineStats.Reads(10, 25, 0, 0, 0, 0), new EngineStats.Background(4, 1, 0, 2, 3_000_000),
            BenchStats.memstore(0, 0, 0, 0, 0, 0),
            BenchStats.levels(new long[] {1L << 20, 0, 10L << 20}, new int[] {1, 0, 5}), 0);

    @Test
    void resultDerivesRatesAndMicroseconds() {
        WorkloadResult r = result(Workload.READRANDOM);
        assertEquals(2.0, r.seconds(), 1e-9);
        assertEquals(500, r.opsPerSecond(), 1e-9);
        assertEquals(1.0, r.mbPerSecond(), 1e-9);
        assertEquals(2.0, r.latencyMicros(50), 0.01);
        assertEquals(1000.0, r.maxLatencyMicros(), 1.0);
    }

    @Test
    void csvRowHasOneValuePerHeaderColumn() {
        String row = CsvReport.row(result(Workload.READRANDOM));
        assertEquals(CsvReport.HEADER.split(",").length, row.split(",", -1).length, row);
        assertTrue(row.startsWith("readrandom,1000,2.000000,500.0,1.000,"), row);
        assertTrue(row.endsWith(",3.0000,2.2000,1.1000,2.5000,2,3,4,1,1;0;5,1048576;0;10485760"), row);
        assertTrue(row.contains(",990,10,"), "found and not found: " + row);
        String fill = CsvReport.row(result(Workload.FILLSEQ));
        assertTrue(fill.contains(",,,"), "no found counts for writes: " + fill);
    }

    @Test
    void printedRowAndStatsAreReadable() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReportPrinter p = new ReportPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.printResultHeader();
        p.printResult(result(Workload.READRANDOM));
        p.printResult(result(Workload.FILLSEQ));
        p.printEngineStats(STATS);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(lines[0].length(), lines[2].length(), "rows align with the header:\n" + String.join("\n", lines));
        assertTrue(lines[2].startsWith("readrandom"));
        assertTrue(lines[2].trim().endsWith("990         10"), lines[2]);
        assertTrue(lines[3].trim().endsWith("-          -"), lines[3]);
        assertTrue(lines[4].contains("write-amp 3.00, total write-amp 2.20, space-amp 1.10, tables/get 2.50,"
                + " stalls 2 (3 ms), flushes 4, compactions 1"), lines[4]);
        assertEquals("    levels: L0 1 tables 1.0 MiB; L2 5 tables 10.0 MiB", lines[5]);
    }

    @Test
    void emptyStoreHasNoTables() {
        EngineStats empty = new EngineStats(new EngineStats.Io(0, 0, 0, 0, 0, "buffered"),
                new EngineStats.Reads(0, 0, 0, 0, 0, 0), new EngineStats.Background(0, 0, 0, 0, 0),
                BenchStats.memstore(0, 0, 0, 0, 0, 0), BenchStats.levels(new long[0], new int[0]), 0);
        assertEquals("no tables", ReportPrinter.levels(empty));
    }

    private static WorkloadResult result(Workload w) {
        Histogram h = ThreadStats.newHistogram();
        for (int i = 0; i < 999; i++) {
            h.recordValue(2_000);
        }
        h.recordValue(1_000_000);
        return new WorkloadResult(w, 1000, 2_000_000_000L, 2L << 20, 990, 10, h, STATS, 0, 0, 1000, new double[0]);
    }
}
