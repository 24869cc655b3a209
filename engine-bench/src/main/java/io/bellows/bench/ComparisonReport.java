package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Compare mode's table and CSV: for each workload, one row per engine configuration with its
 * figures and their ratios to the baseline's. Ratios read "this engine / baseline": above 1 is
 * better for ops/s, worse for latency and amplification.
 */
final class ComparisonReport {
    private static final String ROW =
            "%-16s %-32s %11s %7s %9s %9s %9s %7s %7s %7s %7s %7s %8s %8s%n";
    static final String CSV_HEADER = "workload,engine,ops,seconds,ops_per_sec,ops_ratio,p50_us,p99_us,p999_us,max_us,"
            + "p99_ratio,found,not_found,write_amp,write_amp_ratio,write_amp_user,total_write_amp,space_amp,gc_ms,cpu_ms,stall_ms,"
            + "flushes,compactions,memstore_heap_bytes,memstore_offheap_bytes,chunk_pool_offheap_bytes";

    private ComparisonReport() {}

    /** Prints the table; {@code baseline} indexes {@code runs}. REQUIRES every run has the same workloads. */
    static void print(PrintStream out, List<EngineRun> runs, int baseline) {
        out.println();
        out.println("Comparison (ratios are engine / " + runs.get(baseline).engine() + ")");
        out.printf(Locale.ROOT, ROW, "workload", "engine", "ops/s", "x ops", "p50 us", "p99 us", "p99.9 us", "x p99",
                "w-amp", "x w-amp", "wa-user", "s-amp", "gc ms", "cpu s");
        out.println("-".repeat(156));
        int workloads = runs.get(0).results().size();
        for (int i = 0; i < workloads; i++) {
            WorkloadResult base = runs.get(baseline).results().get(i);
            for (int e = 0; e < runs.size(); e++) {
                WorkloadResult r = runs.get(e).results().get(i);
                out.printf(Locale.ROOT, ROW, e == 0 ? r.workload().flagName() : "", runs.get(e).engine(),
                        fixed(r.opsPerSecond(), 0), ratio(r.opsPerSecond(), base.opsPerSecond()),
                        fixed(r.latencyMicros(50), 1), fixed(r.latencyMicros(99), 1), fixed(r.latencyMicros(99.9), 1),
                        ratio(r.latencyMicros(99), base.latencyMicros(99)),
                        fixed(r.stats().io().writeAmplification(), 2),
                        ratio(r.stats().io().writeAmplification(), base.stats().io().writeAmplification()),
                        fixed(userWriteAmplification(r), 2), fixed(r.stats().levels().spaceAmplification(), 2),
                        Long.toString(r.gcMillis()),
                        fixed(r.cpuNanos() / 1e9, 1));
            }
        }
        out.println();
        out.println("w-amp: (flush + compaction bytes written) / flush bytes written, RocksDB's definition, each"
                + " engine's own counters, cumulative since the store was created;");
        out.println("wa-user: (flush + compaction bytes written) / key and value bytes written by the benchmark.");
        out.println("s-amp: table bytes / bytes of the last non-empty level. gc ms, cpu s: of that engine's JVM"
                + " during the workload.");
        printMemory(out, runs, baseline);
    }

    /**
     * Where each Bellows configuration's MemStore kept its bytes when the workload ended, next to the
     * GC time it cost: the figures that tell memory layouts and policies apart.
     */
    private static void printMemory(PrintStream out, List<EngineRun> runs, int baseline) {
        String row = "%-16s %-32s %9s %7s %11s %11s %11s %11s%n";
        out.println();
        out.println("MemStore memory at the end of each workload (MiB; x gc = gc ms / " + runs.get(baseline).engine()
                + "'s)");
        out.printf(Locale.ROOT, row, "workload", "engine", "gc ms", "x gc", "data", "heap", "off-heap", "pool");
        out.println("-".repeat(114));
        int workloads = runs.get(0).results().size();
        for (int i = 0; i < workloads; i++) {
            WorkloadResult base = runs.get(baseline).results().get(i);
            for (int e = 0; e < runs.size(); e++) {
                WorkloadResult r = runs.get(e).results().get(i);
                out.printf(Locale.ROOT, row, e == 0 ? r.workload().flagName() : "", runs.get(e).engine(),
                        Long.toString(r.gcMillis()), ratio(r.gcMillis(), base.gcMillis()),
                        mib(r.stats().memstore().dataBytes()), mib(r.stats().memstore().heapBytes()),
                        mib(r.stats().memstore().offHeapBytes()), mib(r.stats().memstore().chunkPoolOffHeapBytes()));
            }
        }
        out.println();
        out.println("heap: the engine's estimate of the Java heap its MemStore holds; off-heap: bytes its segments"
                + " hold in off-heap chunks; pool: off-heap bytes the chunk pool has allocated (in use and free).");
    }

    private static String mib(long bytes) {
        return fixed(bytes / (1024.0 * 1024.0), 1);
    }

    static void writeCsv(Path path, List<EngineRun> runs, int baseline) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (BufferedWriter w = Files.newBufferedWriter(path, StandardCharsets.UTF_8)) {
                w.write(CSV_HEADER);
                w.newLine();
                int workloads = runs.get(0).results().size();
                for (int i = 0; i < workloads; i++) {
                    WorkloadResult base = runs.get(baseline).results().get(i);
                    for (EngineRun run : runs) {
                        w.write(csvRow(run.engine(), run.results().get(i), base));
                        w.newLine();
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CSV results " + path, e);
        }
    }

    static String csvRow(String engine, WorkloadResult r, WorkloadResult base) {
        boolean lookups = r.workload().lookups();
        return String.format(Locale.ROOT, "%s,%s,%d,%.6f,%.1f,%.4f,%.2f,%.2f,%.2f,%.2f,%.4f,%s,%s,%.4f,%.4f,%.4f,%.4f,"
                        + "%.4f,%d,%d,%d,%d,%d,%d,%d,%d",
                r.workload().flagName(), engine, r.ops(), r.seconds(), r.opsPerSecond(),
                safeRatio(r.opsPerSecond(), base.opsPerSecond()), r.latencyMicros(50), r.latencyMicros(99),
                r.latencyMicros(99.9), r.maxLatencyMicros(), safeRatio(r.latencyMicros(99), base.latencyMicros(99)),
                lookups ? Long.toString(r.found()) : "", lookups ? Long.toString(r.notFound()) : "",
                r.stats().io().writeAmplification(),
                safeRatio(r.stats().io().writeAmplification(), base.stats().io().writeAmplification()),
                userWriteAmplification(r), r.stats().io().totalWriteAmplification(),
                r.stats().levels().spaceAmplification(), r.gcMillis(), r.cpuNanos() / 1_000_000,
                r.stats().background().stallNanos() / 1_000_000, r.stats().background().flushes(),
                r.stats().background().compactions(), r.stats().memstore().heapBytes(),
                r.stats().memstore().offHeapBytes(), r.stats().memstore().chunkPoolOffHeapBytes());
    }

    /** Table bytes written (flushes and compactions) per user byte written; 0 before any write. */
    static double userWriteAmplification(WorkloadResult r) {
        EngineStats.Io io = r.stats().io();
        long user = io.userBytesWritten();
        return user == 0 ? 0 : (double) (io.flushBytesWritten() + io.compactionBytesWritten()) / user;
    }

    private static double safeRatio(double a, double b) {
        return b == 0 ? 0 : a / b;
    }

    private static String ratio(double a, double b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
    }

    private static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
