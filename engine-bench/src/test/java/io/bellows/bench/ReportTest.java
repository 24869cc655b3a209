package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            BenchStats.levels(new long[] {1L << 20, 0, 10L << 20}, new int[] {1, 0, 5},
                    new long[] {1L << 20, 0, 9L << 20}), 0);
    /** The counters before the workload: its own are STATS minus these. */
    private static final EngineStats BEFORE = new EngineStats(new EngineStats.Io(500, 500, 300, 0, 300, "buffered"),
            new EngineStats.Reads(4, 10, 0, 0, 0, 0), new EngineStats.Background(1, 0, 0, 1, 1_000_000),
            BenchStats.memstore(0, 0, 0, 0, 0, 0), BenchStats.levels(new long[] {1L << 20}, new int[] {1}), 0);
    /** A store that has written nothing to disk: its data is all in the MemStore. */
    private static final EngineStats MEMORY_ONLY = new EngineStats(new EngineStats.Io(5000, 5000, 0, 0, 0, "buffered"),
            new EngineStats.Reads(0, 0, 0, 0, 0, 0), new EngineStats.Background(0, 0, 0, 0, 0),
            BenchStats.memstore(5000, 9000, 0, 0, 0, 0), BenchStats.levels(new long[] {0, 0}, new int[] {0, 0}), 0);

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
        assertTrue(row.endsWith(",6.0000,2.2000,1.1000,2.5000,1,2,3,1,1;0;5,1048576;0;10485760,3.0000,ran"),
                "the workload's own counters, then the store's write-amp since opened: " + row);
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
        p.printEngineStats(BEFORE, STATS);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(lines[0].length(), lines[2].length(), "rows align with the header:\n" + String.join("\n", lines));
        assertTrue(lines[2].startsWith("readrandom"));
        assertTrue(lines[2].trim().endsWith("990         10"), lines[2]);
        assertTrue(lines[3].trim().endsWith("-          -"), lines[3]);
        assertTrue(lines[4].contains("write-amp 6.00, total write-amp 2.20, space-amp 1.10 (last-level 1.10), tables/get 2.50,"
                + " stalls 1 (2 ms), flushes 3 (0.0 MiB), compactions 1 (0.0 MiB written); since opened: write-amp 3.00"),
                "the workload's own figures, not running totals: " + lines[4]);
        assertEquals("    levels: L0 1 tables 1.0 MiB; L2 5 tables 10.0 MiB", lines[5]);
    }

    @Test
    void settleLineGivesTheBacklogItCompactedAndTheStoreAtRest() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8)).printSettled(BEFORE, STATS);
        assertEquals("    at rest: flushes 3 (0.0 MiB), compactions 1 (0.0 MiB written) while settling; since opened:"
                + " write-amp 3.00, space-amp 1.10 (last-level 1.10)", bytes.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
    }

    @Test
    void amplificationIsADashWhenNothingReachedDisk() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8)).printEngineStats(MEMORY_ONLY, MEMORY_ONLY);
        String line = bytes.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
        assertEquals("    engine: write-amp -, total write-amp -, space-amp - (last-level -), tables/get -, stalls 0 (0 ms), flushes 0"
                + " (0.0 MiB), compactions 0 (0.0 MiB written); since opened: write-amp -", line);
        assertFalse(Figures.reachedDisk(MEMORY_ONLY));
        assertTrue(Figures.reachedDisk(STATS));
        assertTrue(Double.isNaN(Figures.userWriteAmp(MEMORY_ONLY.io())));
        assertEquals(1.2, Figures.userWriteAmp(STATS.io()), 1e-9);
        String row = CsvReport.row(new WorkloadResult(Workload.FILLSEQ, 10, 1000, 100, 0, 0, ThreadStats.newHistogram(),
                MEMORY_ONLY, MEMORY_ONLY, 0, 0, 10, new double[0]));
        assertTrue(row.contains(",,,,,,,0,0,0,0,"), "undefined amplification is an empty field, not 0: " + row);
    }

    @Test
    void workloadsThatDidNotRunSayWhy() {
        WorkloadResult refused = WorkloadResult.notRun(Workload.YCSB_E, WorkloadResult.Outcome.NOT_SUPPORTED,
                "no key order");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReportPrinter p = new ReportPrinter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.printResult(refused);
        p.printProcess(refused);
        p.printHistogram(refused);
        assertEquals("ycsbe            not supported: no key order\n", bytes.toString(StandardCharsets.UTF_8));
        String row = CsvReport.row(refused);
        assertEquals(CsvReport.HEADER.split(",").length, row.split(",", -1).length, row);
        assertTrue(row.startsWith("ycsbe,,") && row.endsWith(",not supported"), row);
        String compare = ComparisonReport.csvRow("bellows:LSM_TRIE/NONE", refused, result(Workload.YCSB_E));
        assertEquals(ComparisonReport.CSV_HEADER.split(",").length, compare.split(",", -1).length, compare);
        assertTrue(compare.startsWith("ycsbe,bellows:LSM_TRIE/NONE,,") && compare.endsWith(",not supported"), compare);
        String againstRefused = ComparisonReport.csvRow("rocksdb", result(Workload.YCSB_E), refused);
        assertTrue(againstRefused.contains(",500.0,,"), "no ratio to a baseline that did not run: " + againstRefused);
    }

    @Test
    void compareCsvGivesAmplificationSinceCreationAndTheWorkloadsOwnCounts() {
        String row = ComparisonReport.csvRow("bellows:LEVELED/NONE", result(Workload.READRANDOM), result(Workload.READRANDOM));
        assertTrue(row.contains(",3.0000,1.0000,1.2000,2.2000,1.1000,0,0,2,3,1,"),
                "write-amp 3 since created, then gc and cpu, then the workload's 2 stall ms, 3 flushes, 1 compaction: "
                        + row);
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
        return new WorkloadResult(w, 1000, 2_000_000_000L, 2L << 20, 990, 10, h, STATS, BEFORE, 0, 0, 1000, new double[0]);
    }
}
