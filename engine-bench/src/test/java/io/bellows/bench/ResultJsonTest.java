package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultJsonTest {
    private static final EngineStats BEFORE = new EngineStats(new EngineStats.Io(100, 110, 0, 0, 0, "direct"),
            new EngineStats.Reads(0, 0, 0, 0, 0, 0), new EngineStats.Background(0, 0, 0, 0, 0),
            BenchStats.memstore(7, 9, 11, 3, 2, 6L << 20), BenchStats.levels(new long[0], new int[0]), 100);

    @TempDir
    Path tmp;

    @Test
    void resultsRoundTripExactly() {
        Histogram h = ThreadStats.newHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L);
        }
        EngineStats stats = new EngineStats(new EngineStats.Io(1000, 1100, 400, 300, 800, "direct"),
                new EngineStats.Reads(10, 25, 3, 4, 6, 5), new EngineStats.Background(4, 1, 0, 2, 3_000_000),
                BenchStats.memstore(7, 9, 11, 3, 2, 6L << 20),
                BenchStats.levels(new long[] {1L << 20, 0, 10L << 20}, new int[] {1, 0, 5}), 1234);
        WorkloadResult r = new WorkloadResult(Workload.YCSB_A, 1000, 2_000_000_000L, 116_000, 600, 0, h, stats, BEFORE,
                12, 3_500_000_000L, 250, new double[] {100.5, 200, 300});
        Path file = tmp.resolve("r.json");
        ResultJson.write(file, "rocksdb", List.of(new EngineRun("bellows:LEVELED/NONE", "opts", List.of(r))));
        List<EngineRun> runs = ResultJson.read(file);
        assertEquals(1, runs.size());
        assertEquals("bellows:LEVELED/NONE", runs.get(0).engine());
        assertEquals("opts", runs.get(0).options());
        WorkloadResult b = runs.get(0).results().get(0);
        assertTrue(b.ran());
        assertEquals(r.workload(), b.workload());
        assertEquals(r.ops(), b.ops());
        assertEquals(r.nanos(), b.nanos());
        assertEquals(r.bytes(), b.bytes());
        assertEquals(r.found(), b.found());
        assertEquals(r.gcMillis(), b.gcMillis());
        assertEquals(r.cpuNanos(), b.cpuNanos());
        assertEquals(r.sampleMillis(), b.sampleMillis());
        assertArrayEquals(r.throughput(), b.throughput());
        assertEquals(h, b.latency());
        assertEquals(stats.toString(), b.stats().toString());
        assertEquals(BEFORE.toString(), b.statsBefore().toString());
        assertEquals(6, b.stats().reads().filterBlockReads());
        assertEquals(11, b.stats().memstore().offHeapBytes());
        assertEquals(6L << 20, b.stats().memstore().chunkPoolOffHeapBytes());
        assertEquals(Arrays.toString(new long[] {1L << 20, 0, 10L << 20}),
                Arrays.toString(new long[] {b.stats().levels().get(0).bytes(), b.stats().levels().get(1).bytes(),
                    b.stats().levels().get(2).bytes()}));
    }

    @Test
    void notRunWorkloadsKeepTheirReasonAndUndefinedFiguresAreNull() throws IOException {
        Histogram h = ThreadStats.newHistogram();
        h.recordValue(1000);
        WorkloadResult memOnly = new WorkloadResult(Workload.FILLRANDOM, 100, 1_000_000, 1000, 0, 0, h, BEFORE, BEFORE,
                0, 0, 10, new double[0]);
        WorkloadResult refused = WorkloadResult.notRun(Workload.YCSB_E, WorkloadResult.Outcome.NOT_SUPPORTED,
                "no key order");
        WorkloadResult crashed = WorkloadResult.notRun(Workload.READRANDOM, WorkloadResult.Outcome.FAILED,
                "its JVM exited with code 134");
        Path file = tmp.resolve("r.json");
        ResultJson.write(file, null, List.of(new EngineRun("bellows:LSM_TRIE/NONE", "o", List.of(memOnly, refused,
                crashed))));
        String text = Files.readString(file);
        assertTrue(text.contains("\"write_amp\" : null"), "no table written: write-amp is undefined, not 0\n" + text);
        assertTrue(text.contains("\"space_amp\" : null"), text);
        assertFalse(text.contains("NaN"), text);
        List<WorkloadResult> back = ResultJson.read(file).get(0).results();
        assertEquals(WorkloadResult.Outcome.RAN, back.get(0).outcome());
        assertEquals(WorkloadResult.Outcome.NOT_SUPPORTED, back.get(1).outcome());
        assertEquals("no key order", back.get(1).reason());
        assertEquals(Workload.YCSB_E, back.get(1).workload());
        assertEquals(WorkloadResult.Outcome.FAILED, back.get(2).outcome());
        assertEquals("its JVM exited with code 134", back.get(2).reason());
    }

    @Test
    void malformedFilesAreRejected() throws IOException {
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, "{\"runs\": [");
        assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));
        Files.writeString(file, "{\"runs\": [{\"engine\": \"x\", \"options\": \"o\", \"workloads\": [{\"workload\":"
                + " \"readrandom\", \"status\": \"ran\"}]}]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));
        assertTrue(e.getMessage().contains("'throughput' is missing"), e.getMessage());
    }
}
