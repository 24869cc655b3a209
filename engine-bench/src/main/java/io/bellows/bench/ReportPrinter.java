package io.bellows.bench;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.MemoryLayout;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/** The human-readable report: configuration, one fixed-width row per workload, engine stats, summary. */
final class ReportPrinter {
    private static final String ROW = "%-16s %11s %9s %11s %8s %9s %9s %9s %10s %10s %10s%n";
    private static final double MIB = 1024.0 * 1024.0;

    private final PrintStream out;

    ReportPrinter(PrintStream out) {
        this.out = out;
    }

    void printConfiguration(BenchOptions o, Path dir, boolean temporary) {
        Runtime rt = Runtime.getRuntime();
        out.println("bellows-bench");
        line("machine", String.format(Locale.ROOT, "%d cores, max heap %d MiB, Java %s (%s), %s %s",
                rt.availableProcessors(), rt.maxMemory() >> 20, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.arch")));
        line("benchmarks", String.join(",", o.benchmarks().stream().map(Workload::flagName).toList()));
        line("entries", "num " + o.num() + ", reads " + o.reads() + ", deletes " + o.deletes() + ", operations "
                + o.operations() + " (YCSB, " + (o.requestDistribution() == null ? "each workload's distribution"
                : o.requestDistribution().flagName() + " keys") + ", scans up to " + o.scanLength() + ")");
        line("data", "keys " + o.keySize() + " bytes (number big-endian in the tail), values "
                + (o.valueSizeMin() == o.valueSize() ? "" : o.valueSizeMin() + "-") + o.valueSize()
                + " bytes (random, incompressible)");
        line("clients", o.threads() + " thread(s), " + o.distribution().flagName() + " keys, batch_size "
                + o.batchSize() + ", seek_nexts " + o.seekNexts() + ", seed " + o.seed());
        line("durability", o.durability().name());
        line("engine", o.engine().label() + " " + o.bellowsOptions());
        if (o.engine().kind() == EngineSpec.Kind.BELLOWS) {
            line("memstore", memoryLayout(o));
        }
        line("db", dir + (temporary ? " (temporary, deleted at the end)"
                : o.useExistingDb() ? " (existing store)" : " (kept at the end)"));
    }

    /** The MemStore's layout and, for OFF_HEAP, its chunk limit against the JVM's direct memory. */
    static String memoryLayout(BenchOptions o) {
        EngineOptions e = o.bellowsOptions();
        String text = e.memoryLayout().name() + " layout, " + e.inMemoryCompaction().name() + ", "
                + BenchFlags.sizeText(e.memstoreSize());
        if (e.memoryLayout() != MemoryLayout.OFF_HEAP) {
            return text;
        }
        long limit = e.offHeapLimit() > 0 ? e.offHeapLimit() : EngineOptions.defaultOffHeapLimit(e.memstoreSize());
        return text + ", off-heap limit " + BenchFlags.sizeText(limit) + (e.offHeapLimit() > 0 ? "" : " (default)")
                + ", JVM direct memory " + BenchFlags.sizeText(maxDirectMemory());
    }

    /** -XX:MaxDirectMemorySize, which defaults to the maximum heap. */
    private static long maxDirectMemory() {
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-XX:MaxDirectMemorySize=")) {
                try {
                    return BenchFlags.bytesIn("MaxDirectMemorySize", a.substring(a.indexOf('=') + 1), 0, Long.MAX_VALUE);
                } catch (FlagException e) {
                    break;
                }
            }
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** The table I/O mode and how long the engine took to open (recovery, and any preload of tables). */
    void printTableIo(String mode, long openNanos) {
        line("table I/O", mode);
        line("opened in", String.format(Locale.ROOT, "%.2f s", openNanos / 1e9));
        out.println();
    }

    void printResultHeader() {
        out.printf(Locale.ROOT, ROW, "workload", "ops", "seconds", "ops/s", "MB/s", "p50 us", "p99 us",
                "p99.9 us", "max us", "found", "not found");
        out.println("-".repeat(127));
    }

    void printResult(WorkloadResult r) {
        if (!r.ran()) {
            out.printf(Locale.ROOT, "%-16s %s: %s%n", r.workload().flagName(), r.outcome().text(), r.reason());
            return;
        }
        boolean lookups = r.workload().lookups();
        out.printf(Locale.ROOT, ROW, r.workload().flagName(), r.ops(), fixed(r.seconds(), 3),
                fixed(r.opsPerSecond(), 0), fixed(r.mbPerSecond(), 1), fixed(r.latencyMicros(50), 1),
                fixed(r.latencyMicros(99), 1), fixed(r.latencyMicros(99.9), 1), fixed(r.maxLatencyMicros(), 1),
                lookups ? Long.toString(r.found()) : "-", lookups ? Long.toString(r.notFound()) : "-");
    }

    /**
     * The engine's line for one workload: its own writes, amplification, probes, stalls and background
     * work (the counters between {@code before} and {@code after}), the state after it (space
     * amplification, levels), and the store's write amplification since it was opened.
     */
    void printEngineStats(EngineStats before, EngineStats after) {
        EngineStats own = StatsDelta.between(before, after);
        out.printf(Locale.ROOT, "    engine: write-amp %s, total write-amp %s, space-amp %s (last-level %s),"
                        + " tables/get %s, stalls %d (%d ms), flushes %d (%.1f MiB), compactions %d (%.1f MiB written);"
                        + " since opened: write-amp %s%n",
                Figures.fixed(Figures.writeAmp(own.io()), 2), Figures.fixed(Figures.totalWriteAmp(own.io()), 2),
                Figures.fixed(Figures.spaceAmp(after.levels()), 2), Figures.fixed(Figures.lastLevelSpaceAmp(after.levels()), 2),
                Figures.fixed(Figures.tablesPerGet(own.reads()), 2), own.background().stalls(),
                own.background().stallNanos() / 1_000_000, own.background().flushes(),
                own.io().flushBytesWritten() / MIB, own.background().compactions(),
                own.io().compactionBytesWritten() / MIB, Figures.fixed(Figures.writeAmp(after.io()), 2));
        EngineStats.StallCauses sc = own.background().stallCauses();
        if (own.background().stalls() > 0 && !sc.equals(EngineStats.StallCauses.NONE)) {
            out.printf(Locale.ROOT, "    stalled ms: delayed %d, stopped by compaction %d, waiting for a flush %d,"
                    + " for memory %d%n", sc.delayNanos() / 1_000_000, sc.stopNanos() / 1_000_000,
                    sc.flushNanos() / 1_000_000, sc.memoryNanos() / 1_000_000);
        }
        out.println("    levels: " + levels(after));
        if (!after.scheme().isEmpty()) {
            out.println("    scheme: " + new TreeMap<>(after.scheme()));
        }
        EngineStats.Reads reads = own.reads();
        if (reads.gets() > 0) {
            out.printf(Locale.ROOT, "    disk reads per get: data blocks %.3f, filter blocks %.3f (block cache hits %d)%n",
                    (double) reads.blockReads() / reads.gets(), (double) reads.filterBlockReads() / reads.gets(),
                    reads.blockCacheHits());
        }
    }

    /**
     * What a settle after a workload did (the backlog it compacted; a ratio of that to its few flushed
     * bytes would mean nothing) and the store at rest: write amplification since it was opened, space
     * amplification, levels.
     */
    void printSettled(EngineStats before, EngineStats after) {
        EngineStats own = StatsDelta.between(before, after);
        out.printf(Locale.ROOT, "    at rest: flushes %d (%.1f MiB), compactions %d (%.1f MiB written) while settling;"
                        + " since opened: write-amp %s, space-amp %s (last-level %s)%n",
                own.background().flushes(), own.io().flushBytesWritten() / MIB, own.background().compactions(),
                own.io().compactionBytesWritten() / MIB, Figures.fixed(Figures.writeAmp(after.io()), 2),
                Figures.fixed(Figures.spaceAmp(after.levels()), 2), Figures.fixed(Figures.lastLevelSpaceAmp(after.levels()), 2));
        out.println("    levels: " + levels(after));
    }

    /** This JVM's GC and CPU time during the workload: engine, clients and JIT together. */
    void printProcess(WorkloadResult r) {
        if (!r.ran()) {
            return;
        }
        out.printf(Locale.ROOT, "    process: gc %d ms, cpu %.1f s%n", r.gcMillis(), r.cpuNanos() / 1e9);
    }

    /** The full latency distribution in microseconds (--histogram). */
    void printHistogram(WorkloadResult r) {
        if (!r.ran()) {
            return;
        }
        out.println("    latency distribution of " + r.workload().flagName() + " (microseconds):");
        r.latency().outputPercentileDistribution(out, 5, 1000.0);
        out.println();
    }

    void printSummary(List<WorkloadResult> results) {
        out.println();
        out.println("Summary");
        printResultHeader();
        for (WorkloadResult r : results) {
            printResult(r);
        }
    }

    /** Non-empty levels as "L0 3 tables 12.0 MiB; L1 ...", or "no tables". */
    static String levels(EngineStats s) {
        StringBuilder sb = new StringBuilder();
        for (EngineStats.Level l : s.levels().perLevel()) {
            if (l.tables() == 0 && l.bytes() == 0) {
                continue;
            }
            sb.append(sb.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "L%d %d tables %.1f MiB",
                    l.level(), l.tables(), l.bytes() / MIB));
        }
        return sb.length() == 0 ? "no tables" : sb.toString();
    }

    private void line(String label, String value) {
        out.printf(Locale.ROOT, "  %-11s %s%n", label, value);
    }

    private static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
