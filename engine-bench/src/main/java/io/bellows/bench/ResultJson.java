package io.bellows.bench;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bellows.engine.EngineStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The JSON results file (--json, --out, and how a child JVM hands its results to compare mode):
 * {@code {"baseline": label or null, "runs": [run, ...]}}, each run its engine, options and workloads.
 * A workload carries its status ("ran", "not supported", "failed"; the other two with a reason and
 * nothing else), its derived figures for readers (ops/s, percentiles, amplification: null when
 * undefined) and, so a parent can rebuild it exactly, its raw counters before and after it and its
 * latency histogram (HdrHistogram's compressed encoding, base64).
 */
final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultJson() {}

    static void write(Path path, String baseline, List<EngineRun> runs) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("baseline", baseline);
        ArrayNode list = root.putArray("runs");
        for (EngineRun run : runs) {
            list.add(run(run));
        }
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            // NB: renamed into place, so a reader (compare mode's parent) never sees a half-written file.
            Path partial = path.resolveSibling(path.getFileName() + ".partial");
            MAPPER.writeValue(partial.toFile(), root);
            Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON results " + path, e);
        }
    }

    static List<EngineRun> read(Path path) {
        JsonNode root;
        try {
            root = MAPPER.readTree(path.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException("JSON results " + path + " are malformed: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JSON results " + path, e);
        }
        List<EngineRun> runs = new ArrayList<>();
        for (JsonNode r : array(root, "runs")) {
            runs.add(run(r));
        }
        return runs;
    }

    private static ObjectNode run(EngineRun run) {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("engine", run.engine());
        m.put("options", run.options());
        ArrayNode workloads = m.putArray("workloads");
        for (WorkloadResult r : run.results()) {
            workloads.add(workload(r));
        }
        return m;
    }

    private static EngineRun run(JsonNode m) {
        List<WorkloadResult> results = new ArrayList<>();
        for (JsonNode w : array(m, "workloads")) {
            results.add(workload(w));
        }
        return new EngineRun(text(m, "engine"), text(m, "options"), results);
    }

    private static ObjectNode workload(WorkloadResult r) {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("workload", r.workload().flagName());
        m.put("status", r.outcome().text());
        if (!r.ran()) {
            m.put("reason", r.reason());
            return m;
        }
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
        figure(m, "write_amp", Figures.writeAmp(r.stats().io()));
        figure(m, "write_amp_user", Figures.userWriteAmp(r.stats().io()));
        figure(m, "total_write_amp", Figures.totalWriteAmp(r.stats().io()));
        figure(m, "space_amp", Figures.spaceAmp(r.stats().levels()));
        figure(m, "space_amp_last_level", Figures.lastLevelSpaceAmp(r.stats().levels()));
        figure(m, "workload_write_amp", Figures.writeAmp(r.own().io()));
        m.put("nanos", r.nanos());
        m.put("bytes", r.bytes());
        m.put("cpu_nanos", r.cpuNanos());
        m.put("sample_ms", r.sampleMillis());
        ArrayNode samples = m.putArray("throughput");
        for (double v : r.throughput()) {
            samples.add(v);
        }
        m.set("stats", stats(r.stats()));
        m.set("stats_before", stats(r.statsBefore()));
        m.put("latency_hdr", encode(r.latency()));
        return m;
    }

    private static WorkloadResult workload(JsonNode m) {
        Workload workload = Workload.byFlagName(text(m, "workload"));
        WorkloadResult.Outcome outcome = WorkloadResult.Outcome.byText(text(m, "status"));
        if (outcome != WorkloadResult.Outcome.RAN) {
            return WorkloadResult.notRun(workload, outcome, text(m, "reason"));
        }
        JsonNode samples = array(m, "throughput");
        double[] throughput = new double[samples.size()];
        for (int i = 0; i < throughput.length; i++) {
            JsonNode v = samples.get(i);
            throughput[i] = v.isNumber() ? v.doubleValue() : Double.NaN;
        }
        return new WorkloadResult(workload, num(m, "ops"), num(m, "nanos"), num(m, "bytes"), num(m, "found"),
                num(m, "not_found"), decode(text(m, "latency_hdr")), stats(object(m, "stats")),
                stats(object(m, "stats_before")), num(m, "gc_ms"), num(m, "cpu_nanos"), (int) num(m, "sample_ms"),
                throughput);
    }

    private static void figure(ObjectNode m, String key, double v) {
        if (Double.isNaN(v)) {
            m.putNull(key);
        } else {
            m.put(key, v);
        }
    }

    private static ObjectNode stats(EngineStats s) {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("user_bytes", s.io().userBytesWritten());
        m.put("wal_bytes", s.io().walBytesWritten());
        m.put("flush_bytes", s.io().flushBytesWritten());
        m.put("compaction_bytes_read", s.io().compactionBytesRead());
        m.put("compaction_bytes_written", s.io().compactionBytesWritten());
        m.put("manifest_bytes", s.io().manifestBytesWritten());
        m.put("gets", s.reads().gets());
        m.put("tables_probed", s.reads().tablesProbed());
        m.put("block_reads", s.reads().blockReads());
        m.put("block_cache_hits", s.reads().blockCacheHits());
        m.put("filter_block_reads", s.reads().filterBlockReads());
        m.put("bloom_negatives", s.reads().bloomNegatives());
        m.put("stalls", s.background().stalls());
        m.put("stall_nanos", s.background().stallNanos());
        EngineStats.StallCauses sc = s.background().stallCauses();
        m.put("stall_delay_nanos", sc.delayNanos());
        m.put("stall_stop_nanos", sc.stopNanos());
        m.put("stall_flush_nanos", sc.flushNanos());
        m.put("stall_memory_nanos", sc.memoryNanos());
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
        ArrayNode bytes = m.putArray("level_bytes");
        ArrayNode tables = m.putArray("level_tables");
        ArrayNode userBytes = m.putArray("level_user_bytes");
        for (int i = 0; i < s.levels().count(); i++) {
            bytes.add(s.levels().get(i).bytes());
            tables.add(s.levels().get(i).tables());
            userBytes.add(s.levels().get(i).userDataBytes());
        }
        m.put("last_sequence", s.lastSequence());
        m.put("table_io", s.io().tableIoMode());
        return m;
    }

    private static EngineStats stats(JsonNode m) {
        JsonNode bytes = array(m, "level_bytes");
        JsonNode tables = array(m, "level_tables");
        long[] levelBytes = new long[bytes.size()];
        int[] levelTables = new int[tables.size()];
        for (int i = 0; i < levelBytes.length; i++) {
            levelBytes[i] = bytes.get(i).longValue();
        }
        for (int i = 0; i < levelTables.length; i++) {
            levelTables[i] = tables.get(i).intValue();
        }
        // Written by newer builds only: an older file's levels have no known user data (-1).
        JsonNode users = m.get("level_user_bytes");
        long[] levelUserBytes = new long[levelBytes.length];
        for (int i = 0; i < levelUserBytes.length; i++) {
            levelUserBytes[i] = users == null || i >= users.size() ? -1 : users.get(i).longValue();
        }
        return new EngineStats(
                new EngineStats.Io(num(m, "user_bytes"), num(m, "wal_bytes"), num(m, "flush_bytes"),
                        num(m, "compaction_bytes_read"), num(m, "compaction_bytes_written"), text(m, "table_io"),
                        numOrZero(m, "manifest_bytes")),
                new EngineStats.Reads(num(m, "gets"), num(m, "tables_probed"), num(m, "block_reads"),
                        num(m, "block_cache_hits"), num(m, "filter_block_reads"), num(m, "bloom_negatives")),
                new EngineStats.Background(num(m, "flushes"), num(m, "compactions"), num(m, "background_errors"),
                        num(m, "stalls"), num(m, "stall_nanos"), numOrZero(m, "pending_compaction_bytes"), 0,
                        new EngineStats.StallCauses(numOrZero(m, "stall_delay_nanos"), numOrZero(m, "stall_stop_nanos"),
                                numOrZero(m, "stall_flush_nanos"), numOrZero(m, "stall_memory_nanos"))),
                BenchStats.memstore(num(m, "memstore_data_bytes"), num(m, "memstore_heap_bytes"),
                        num(m, "memstore_offheap_bytes"), num(m, "chunks_in_use"), num(m, "chunks_free"),
                        num(m, "chunk_pool_offheap_bytes")),
                BenchStats.levels(levelBytes, levelTables, levelUserBytes),
                num(m, "last_sequence"));
    }

    static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("bad latency histogram in the JSON results: " + e.getMessage(), e);
        }
    }

    private static long num(JsonNode m, String key) {
        JsonNode v = m.get(key);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException("JSON results: '" + key + "' is missing or not a number");
        }
        return v.longValue();
    }

    /** A number written by newer builds only: 0 when a file of an older build lacks it. */
    private static long numOrZero(JsonNode m, String key) {
        JsonNode v = m.get(key);
        return v == null || v.isNull() ? 0 : num(m, key);
    }

    private static String text(JsonNode m, String key) {
        JsonNode v = m.get(key);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("JSON results: '" + key + "' is missing or not a string");
        }
        return v.textValue();
    }

    private static JsonNode object(JsonNode m, String key) {
        JsonNode v = m.get(key);
        if (v == null || !v.isObject()) {
            throw new IllegalArgumentException("JSON results: '" + key + "' is missing or not an object");
        }
        return v;
    }

    private static JsonNode array(JsonNode m, String key) {
        JsonNode v = m.get(key);
        if (v == null || !v.isArray()) {
            throw new IllegalArgumentException("JSON results: '" + key + "' is missing or not an array");
        }
        return v;
    }
}
