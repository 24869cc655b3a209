package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compare mode's table and CSV: for each workload, one row per engine configuration with its
 * figures and their ratios to the baseline's. Ratios read "this engine / baseline": above 1 is
 * better for ops/s, worse for latency and amplification. A cell whose workload did not run (not
 * supported by that engine, or failed) says so and why; an undefined figure prints {@code -}.
 * Amplification is the store's since it was created (write amplification is compared at rest, after
 * the backlog a workload leaves); the CSV's stall_ms, flushes and compactions are the workload's own.
 */
final class ComparisonReport {
    private static final String ROW =
            "%-16s %-32s %11s %7s %9s %9s %9s %7s %7s %7s %7s %7s %8s %8s%n";
    private static final String NOT_RUN_ROW = "%-16s %-32s %11s%n";
    static final String CSV_HEADER = "workload,engine,ops,seconds,ops_per_sec,ops_ratio,p50_us,p99_us,p999_us,max_us,"
            + "p99_ratio,found,not_found,write_amp,write_amp_ratio,write_amp_user,total_write_amp,space_amp,gc_ms,cpu_ms,stall_ms,"
            + "flushes,compactions,memstore_heap_bytes,memstore_offheap_bytes,chunk_pool_offheap_bytes,status";

    private ComparisonReport() {}

    /** Prints the table; {@code baseline} indexes {@code runs}. REQUIRES every run has the same workloads. */
    static void print(PrintStream out, List<EngineRun> runs, int baseline) {
        out.println();
        out.println("Comparison (ratios are engine / " + runs.get(baseline).engine() + ")");
        out.printf(Locale.ROOT, ROW, "workload", "engine", "ops/s", "x ops", "p50 us", "p99 us", "p99.9 us", "x p99",
                "w-amp", "x w-amp", "wa-user", "s-amp", "gc ms", "cpu s");
        out.println("-".repeat(156));
        int workloads = runs.get(0).results().size();
        Set<String> notes = new LinkedHashSet<>();
        for (int i = 0; i < workloads; i++) {
            WorkloadResult base = runs.get(baseline).results().get(i);
            for (int e = 0; e < runs.size(); e++) {
                WorkloadResult r = runs.get(e).results().get(i);
                String name = e == 0 ? r.workload().flagName() : "";
                if (!r.ran()) {
                    out.printf(Locale.ROOT, NOT_RUN_ROW, name, runs.get(e).engine(), r.outcome().text());
                    notes.add(r.workload().flagName() + " on " + runs.get(e).engine() + ": " + r.outcome().text() + ", "
                            + r.reason());
                    continue;
                }
                out.printf(Locale.ROOT, ROW, name, runs.get(e).engine(),
                        Figures.fixed(r.opsPerSecond(), 0), Figures.ratio(r.opsPerSecond(), opsPerSecond(base)),
                        Figures.fixed(r.latencyMicros(50), 1), Figures.fixed(r.latencyMicros(99), 1),
                        Figures.fixed(r.latencyMicros(99.9), 1), Figures.ratio(r.latencyMicros(99), p99(base)),
                        Figures.fixed(writeAmp(r), 2), Figures.ratio(writeAmp(r), writeAmp(base)),
                        Figures.fixed(Figures.userWriteAmp(r.stats().io()), 2),
                        Figures.fixed(Figures.spaceAmp(r.stats().levels()), 2), Long.toString(r.gcMillis()),
                        Figures.fixed(r.cpuNanos() / 1e9, 1));
            }
        }
        out.println();
        out.println("w-amp: (flush + compaction bytes written) / flush bytes written, RocksDB's definition, each"
                + " engine's own counters, cumulative since the store was created;");
        out.println("wa-user: (flush + compaction bytes written) / key and value bytes written by the benchmark.");
        out.println("s-amp: table bytes / key and value bytes the tables hold (every version counts: a lower bound;"
                + " the engine lines add RocksDB's last-level figure). gc ms, cpu s: of that engine's JVM during"
                + " the workload. -: undefined (nothing on disk) or not run.");
        for (String note : notes) {
            out.println(note);
        }
        Winners.print(out, runs);
        printMemory(out, runs, baseline);
        printWarnings(out, runs);
    }

    /**
     * Warns of configurations that never wrote a table: at a --num whose data fits in the MemStore, the
     * comparison (or a single run) measures MemStores, not the compaction schemes the labels name.
     */
    static void printWarnings(PrintStream out, List<EngineRun> runs) {
        for (EngineRun run : runs) {
            boolean ran = run.results().stream().anyMatch(WorkloadResult::ran);
            if (ran && run.results().stream().noneMatch(r -> r.ran() && Figures.reachedDisk(r.stats()))) {
                out.println("warning: " + run.engine() + " never wrote a table: its figures measure its MemStore only;"
                        + " raise --num or lower --memstore_size to compare what reaches disk");
            }
        }
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
                String name = e == 0 ? r.workload().flagName() : "";
                if (!r.ran()) {
                    out.printf(Locale.ROOT, NOT_RUN_ROW.replace("%11s", "%9s"), name, runs.get(e).engine(),
                            r.outcome().text());
                    continue;
                }
                out.printf(Locale.ROOT, row, name, runs.get(e).engine(),
                        Long.toString(r.gcMillis()), Figures.ratio(r.gcMillis(), base.ran() ? base.gcMillis() : Double.NaN),
                        mib(r.stats().memstore().dataBytes()), mib(r.stats().memstore().heapBytes()),
                        mib(r.stats().memstore().offHeapBytes()), mib(r.stats().memstore().chunkPoolOffHeapBytes()));
            }
        }
        out.println();
        out.println("heap: the engine's estimate of the Java heap its MemStore holds; off-heap: bytes its segments"
                + " hold in off-heap chunks; pool: off-heap bytes the chunk pool has allocated (in use and free).");
    }

    private static String mib(long bytes) {
        return Figures.fixed(bytes / (1024.0 * 1024.0), 1);
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
        if (!r.ran()) {
            return r.workload().flagName() + "," + engine + ",".repeat(CSV_HEADER.split(",").length - 2)
                    + r.outcome().text();
        }
        boolean lookups = r.workload().lookups();
        EngineStats own = r.own();
        return String.format(Locale.ROOT, "%s,%s,%d,%.6f,%.1f,%s,%.2f,%.2f,%.2f,%.2f,%s,%s,%s,%s,%s,%s,%s,"
                        + "%s,%d,%d,%d,%d,%d,%d,%d,%d,%s",
                r.workload().flagName(), engine, r.ops(), r.seconds(), r.opsPerSecond(),
                Figures.csvRatio(r.opsPerSecond(), opsPerSecond(base)), r.latencyMicros(50), r.latencyMicros(99),
                r.latencyMicros(99.9), r.maxLatencyMicros(), Figures.csvRatio(r.latencyMicros(99), p99(base)),
                lookups ? Long.toString(r.found()) : "", lookups ? Long.toString(r.notFound()) : "",
                Figures.csv(writeAmp(r), 4), Figures.csvRatio(writeAmp(r), writeAmp(base)),
                Figures.csv(Figures.userWriteAmp(r.stats().io()), 4),
                Figures.csv(Figures.totalWriteAmp(r.stats().io()), 4), Figures.csv(Figures.spaceAmp(r.stats().levels()), 4),
                r.gcMillis(), r.cpuNanos() / 1_000_000,
                own.background().stallNanos() / 1_000_000, own.background().flushes(),
                own.background().compactions(), r.stats().memstore().heapBytes(),
                r.stats().memstore().offHeapBytes(), r.stats().memstore().chunkPoolOffHeapBytes(), r.outcome().text());
    }

    /** The store's write amplification since it was created; NaN when nothing was flushed or it did not run. */
    static double writeAmp(WorkloadResult r) {
        return r.ran() ? Figures.writeAmp(r.stats().io()) : Double.NaN;
    }

    private static double opsPerSecond(WorkloadResult r) {
        return r.ran() ? r.opsPerSecond() : Double.NaN;
    }

    private static double p99(WorkloadResult r) {
        return r.ran() ? r.latencyMicros(99) : Double.NaN;
    }
}
