package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The JSON results file (--json, --out, and how a child JVM hands its results to compare mode):
 * {@code {"baseline": label or null, "runs": [run, ...]}}, each run its engine, options and workloads.
 * A workload carries its derived figures for readers (ops/s, percentiles, amplification) and, so a
 * parent can rebuild it exactly, its raw counters and its latency histogram (HdrHistogram's
 * compressed encoding, base64).
 */
final class ResultJson {
    private ResultJson() {}

    static void write(Path path, String baseline, List<EngineRun> runs) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("baseline", baseline);
        List<Object> list = new ArrayList<>();
        for (EngineRun run : runs) {
            list.add(run(run));
        }
        root.put("runs", list);
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(path, Json.write(root), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON results " + path, e);
        }
    }

    static List<EngineRun> read(Path path) {
        try {
            Map<String, Object> root = map(Json.parse(Files.readString(path, StandardCharsets.UTF_8)));
            List<EngineRun> runs = new ArrayList<>();
            for (Object r : list(root.get("runs"))) {
                runs.add(run(map(r)));
            }
            return runs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JSON results " + path, e);
        }
    }

    private static Map<String, Object> run(EngineRun run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("engine", run.engine());
        m.put("options", run.options());
        List<Object> workloads = new ArrayList<>();
        for (WorkloadResult r : run.results()) {
            workloads.add(workload(r));
        }
        m.put("workloads", workloads);
        return m;
    }

    private static EngineRun run(Map<String, Object> m) {
        List<WorkloadResult> results = new ArrayList<>();
        for (Object w : list(m.get("workloads"))) {
            results.add(workload(map(w)));
        }
        return new EngineRun((String) m.get("engine"), (String) m.get("options"), results);
    }

    private static Map<String, Object> workload(WorkloadResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", r.workload().flagName());
        m.put("ops", r.ops());
        m.put("seconds", r.seconds());
        m.put("ops_per_sec", r.opsPerSecond());
        m.put("mb_per_sec", r.mbPerSecond());
        m.put("p50_us", r.latencyMicros(50));
        m.put("p99_us", r.latencyMicros(99));
        m.put("p999_us", r.latencyMicros(99.9));
        m.put("max_us", r.maxLatencyMicros());
        m.put("found", r.found());
        m.put("not_found", r.notFound());
        m.put("gc_ms", r.gcMillis());
        m.put("cpu_ms", r.cpuNanos() / 1_000_000);
        m.put("write_amp", r.stats().io().writeAmplification());
        m.put("write_amp_user", ComparisonReport.userWriteAmplification(r));
        m.put("total_write_amp", r.stats().io().totalWriteAmplification());
        m.put("space_amp", r.stats().levels().spaceAmplification());
        m.put("nanos", r.nanos());
        m.put("bytes", r.bytes());
        m.put("cpu_nanos", r.cpuNanos());
        m.put("sample_ms", r.sampleMillis());
        m.put("throughput", r.throughput());
        m.put("stats", stats(r.stats()));
        m.put("latency_hdr", encode(r.latency()));
        return m;
    }

    private static WorkloadResult workload(Map<String, Object> m) {
        List<Object> samples = list(m.get("throughput"));
        double[] throughput = new double[samples.size()];
        for (int i = 0; i < throughput.length; i++) {
            Object v = samples.get(i);
            throughput[i] = v == null ? Double.NaN : ((Number) v).doubleValue();
        }
        return new WorkloadResult(Workload.byFlagName((String) m.get("workload")), num(m, "ops"), num(m, "nanos"),
                num(m, "bytes"), num(m, "found"), num(m, "not_found"), decode((String) m.get("latency_hdr")),
                stats(map(m.get("stats"))), num(m, "gc_ms"), num(m, "cpu_nanos"), (int) num(m, "sample_ms"),
                throughput);
    }

    private static Map<String, Object> stats(EngineStats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("user_bytes", s.io().userBytesWritten());
        m.put("wal_bytes", s.io().walBytesWritten());
        m.put("flush_bytes", s.io().flushBytesWritten());
        m.put("compaction_bytes_read", s.io().compactionBytesRead());
        m.put("compaction_bytes_written", s.io().compactionBytesWritten());
        m.put("gets", s.reads().gets());
        m.put("tables_probed", s.reads().tablesProbed());
        m.put("block_reads", s.reads().blockReads());
        m.put("block_cache_hits", s.reads().blockCacheHits());
        m.put("bloom_negatives", s.reads().bloomNegatives());
        m.put("stalls", s.background().stalls());
        m.put("stall_nanos", s.background().stallNanos());
        m.put("flushes", s.background().flushes());
        m.put("compactions", s.background().compactions());
        m.put("background_errors", s.background().errors());
        m.put("pending_compaction_bytes", s.background().pendingCompactionBytes());
        m.put("memstore_data_bytes", s.memstore().dataBytes());
        m.put("memstore_heap_bytes", s.memstore().heapBytes());
        m.put("memstore_offheap_bytes", s.memstore().offHeapBytes());
        m.put("chunks_in_use", s.memstore().chunksInUse());
        m.put("chunks_free", s.memstore().chunksFree());
        m.put("chunk_pool_offheap_bytes", s.memstore().chunkPoolOffHeapBytes());
        long[] bytes = new long[s.levels().count()];
        int[] tables = new int[s.levels().count()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = s.levels().get(i).bytes();
            tables[i] = s.levels().get(i).tables();
        }
        m.put("level_bytes", bytes);
        m.put("level_tables", tables);
        m.put("last_sequence", s.lastSequence());
        m.put("table_io", s.io().tableIoMode());
        return m;
    }

    private static EngineStats stats(Map<String, Object> m) {
        List<Object> bytes = list(m.get("level_bytes"));
        List<Object> tables = list(m.get("level_tables"));
        long[] levelBytes = new long[bytes.size()];
        int[] levelTables = new int[tables.size()];
        for (int i = 0; i < levelBytes.length; i++) {
            levelBytes[i] = ((Number) bytes.get(i)).longValue();
            levelTables[i] = ((Number) tables.get(i)).intValue();
        }
        return new EngineStats(
                new EngineStats.Io(num(m, "user_bytes"), num(m, "wal_bytes"), num(m, "flush_bytes"),
                        num(m, "compaction_bytes_read"), num(m, "compaction_bytes_written"),
                        (String) m.get("table_io")),
                new EngineStats.Reads(num(m, "gets"), num(m, "tables_probed"), num(m, "block_reads"),
                        num(m, "block_cache_hits"), 0, num(m, "bloom_negatives")),
                new EngineStats.Background(num(m, "flushes"), num(m, "compactions"), num(m, "background_errors"),
                        num(m, "stalls"), num(m, "stall_nanos"), numOrZero(m, "pending_compaction_bytes")),
                BenchStats.memstore(num(m, "memstore_data_bytes"), num(m, "memstore_heap_bytes"),
                        numOrZero(m, "memstore_offheap_bytes"), numOrZero(m, "chunks_in_use"),
                        numOrZero(m, "chunks_free"), numOrZero(m, "chunk_pool_offheap_bytes")),
                BenchStats.levels(levelBytes, levelTables),
                num(m, "last_sequence"));
    }

    static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("bad latency histogram in the JSON results: " + e.getMessage(), e);
        }
    }

    private static long num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException("JSON results: '" + key + "' is missing or not a number");
        }
        return ((Number) v).longValue();
    }

    /** A figure results written before off-heap MemStores existed do not have: they had none. */
    private static long numOrZero(Map<String, Object> m, String key) {
        return m.containsKey(key) ? num(m, key) : 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object v) {
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("JSON results: expected an object");
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v) {
        if (!(v instanceof List)) {
            throw new IllegalArgumentException("JSON results: expected an array");
        }
        return (List<Object>) v;
    }
}
