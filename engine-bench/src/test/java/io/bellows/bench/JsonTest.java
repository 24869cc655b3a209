package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.EngineStats;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonTest {
    @TempDir
    Path tmp;

    @Test
    void valuesRoundTrip() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "quote \" back \\ nl \n tab \t ctl \u0001 é");
        m.put("long", Long.MAX_VALUE);
        m.put("double", 0.125);
        m.put("whole", 3.0);
        m.put("nan", Double.NaN);
        m.put("t", true);
        m.put("null", null);
        m.put("list", List.of(1L, "two", List.of()));
        m.put("empty", Map.of());
        m.put("doubles", new double[] {1.5, 2});
        m.put("longs", new long[] {1, -2});
        Object back = Json.parse(Json.write(m));
        Map<String, Object> expected = new LinkedHashMap<>(m);
        expected.put("nan", null);
        expected.put("doubles", List.of(1.5, 2.0));
        expected.put("longs", List.of(1L, -2L));
        assertEquals(expected, back);
    }

    @Test
    void malformedTextIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, 2] x"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\" 1}"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("\"open"));
    }

    @Test
    void resultsRoundTripExactly() {
        Histogram h = ThreadStats.newHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1000L);
        }
        EngineStats stats = new EngineStats(new EngineStats.Io(1000, 1100, 400, 300, 800, "direct"),
                new EngineStats.Reads(10, 25, 3, 4, 0, 5), new EngineStats.Background(4, 1, 0, 2, 3_000_000),
                BenchStats.memstore(7, 9, 11, 3, 2, 6L << 20),
                BenchStats.levels(new long[] {1L << 20, 0, 10L << 20}, new int[] {1, 0, 5}), 1234);
        WorkloadResult r = new WorkloadResult(Workload.YCSB_A, 1000, 2_000_000_000L, 116_000, 600, 0, h, stats, 12,
                3_500_000_000L, 250, new double[] {100.5, 200, 300});
        Path file = tmp.resolve("r.json");
        ResultJson.write(file, "rocksdb", List.of(new EngineRun("bellows:LEVELED/NONE", "opts", List.of(r))));
        List<EngineRun> runs = ResultJson.read(file);
        assertEquals(1, runs.size());
        assertEquals("bellows:LEVELED/NONE", runs.get(0).engine());
        assertEquals("opts", runs.get(0).options());
        WorkloadResult b = runs.get(0).results().get(0);
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
        assertEquals(stats.io().walBytesWritten(), b.stats().io().walBytesWritten());
        assertEquals(stats.memstore().heapBytes(), b.stats().memstore().heapBytes());
        assertEquals(11, b.stats().memstore().offHeapBytes());
        assertEquals(3, b.stats().memstore().chunksInUse());
        assertEquals(2, b.stats().memstore().chunksFree());
        assertEquals(6L << 20, b.stats().memstore().chunkPoolOffHeapBytes());
        assertEquals(stats.lastSequence(), b.stats().lastSequence());
        assertEquals(Arrays.toString(new long[] {1L << 20, 0, 10L << 20}),
                Arrays.toString(new long[] {b.stats().levels().get(0).bytes(), b.stats().levels().get(1).bytes(),
                    b.stats().levels().get(2).bytes()}));
    }
}
