package io.bellows.bench;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.MemoryLayout;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * bellows-bench: db_bench for Bellows. Runs the workloads of --benchmarks in order against one store,
 * printing a fixed-width row of throughput and latency plus the engine's stats after each, and
 * optionally CSV, JSON and charts. With --engines it is compare mode instead ({@link CompareRunner}):
 * the same workloads once per engine configuration, each in its own JVM, then one table with ratios.
 * {@code --help} lists the flags.
 */
public final class BellowsBench {
    private static final double MIB = 1024.0 * 1024.0;

    private BellowsBench() {}

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /**
     * Runs the command line and returns its exit code: 0 done, 1 the engine failed (in compare mode: a
     * configuration's JVM failed, after the others' results are reported), 2 bad command line.
     */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        try {
            BenchOptions options = BenchFlags.parse(args);
            if (options.help()) {
                BenchFlags.printHelp(out);
            } else if (options.compare()) {
                List<EngineRun> runs = CompareRunner.run(args, options, out);
                boolean failed = runs.stream().flatMap(r -> r.results().stream())
                        .anyMatch(r -> r.outcome() == WorkloadResult.Outcome.FAILED);
                return failed ? 1 : 0;
            } else {
                run(options, out, progressStream(options, err), BellowsBench::open);
            }
            return 0;
        } catch (FlagException e) {
            err.println("bellows-bench: " + e.getMessage());
            err.println("Run with --help to list the flags.");
            return 2;
        } catch (RuntimeException e) {
            err.println("bellows-bench: failed: " + e.getMessage());
            e.printStackTrace(err);
            return 1;
        }
    }

    /** Parses {@code args} and runs them in this JVM; --help prints the flags and returns no results. */
    static List<WorkloadResult> run(String[] args, PrintStream out) {
        BenchOptions options = BenchFlags.parse(args);
        if (options.help()) {
            BenchFlags.printHelp(out);
            return List.of();
        }
        return run(options, out, null, BellowsBench::open);
    }

    /**
     * The MemStore's side of a workload ({@code s} holds its own counters): GC time, in-memory work,
     * Java heap per entry beyond the cell bytes held on the heap (ON_HEAP: skiplist and flat segments
     * hold them; OFF_HEAP: no segment does), off-heap bytes per entry, and where the MemStore's bytes
     * live now.
     */
    private static void printMemStore(PrintStream out, EngineStats s, long gcMillis, MemoryLayout layout) {
        boolean onHeap = layout == MemoryLayout.ON_HEAP;
        EngineStats.MemStore m = s.memstore();
        long entries = m.entries();
        out.printf(Locale.ROOT, "    memstore: gc %d ms, flush bytes %d, in-memory flushes %d, merges %d, compactions %d,"
                        + " eliminated %d bytes, heap/entry skiplist %s flat %s serialized %s, off-heap/entry %s%n",
                gcMillis, s.io().flushBytesWritten(), m.inMemoryFlushes(), m.inMemoryMerges(), m.inMemoryCompactions(),
                m.inMemoryBytesEliminated(),
                perEntry(m.skiplist().heapBytes() - (onHeap ? m.skiplist().dataBytes() : 0), m.skiplist().entries()),
                perEntry(m.flat().heapBytes() - (onHeap ? m.flat().dataBytes() : 0), m.flat().entries()),
                perEntry(m.serialized().heapBytes(), m.serialized().entries()),
                perEntry(m.offHeapBytes(), onHeap ? 0 : entries));
        out.printf(Locale.ROOT, "    memstore memory: data %.1f MiB, heap %.1f MiB, off-heap %.1f MiB, chunks %d in use"
                        + " %d free, pool off-heap %.1f MiB%n",
                m.dataBytes() / MIB, m.heapBytes() / MIB, m.offHeapBytes() / MIB,
                m.chunksInUse(), m.chunksFree(), m.chunkPoolOffHeapBytes() / MIB);
    }

    private static String perEntry(long overhead, long entries) {
        return entries == 0 ? "-" : String.format(Locale.ROOT, "%.1f", (double) overhead / entries);
    }

    /** Runs {@code o} on Bellows stores opened by {@code opener} ({@link Engine#open} outside tests). */
    static List<WorkloadResult> run(BenchOptions o, PrintStream out, BiFunction<Path, EngineOptions, Engine> opener) {
        return run(o, out, null, (dir, options) -> new BellowsEngine(opener.apply(dir, options.bellowsOptions()),
                options.durability()));
    }

    /** Whether to draw progress bars: --progress if given, else when this JVM runs in a terminal. */
    static boolean progressWanted(BenchOptions o) {
        return o.progress() != null ? o.progress() : System.console() != null;
    }

    private static PrintStream progressStream(BenchOptions o, PrintStream err) {
        return progressWanted(o) ? err : null;
    }

    /** Opens the engine of {@code o.engine()} in {@code dir}. */
    static BenchEngine open(Path dir, BenchOptions o) {
        if (o.engine().kind() == EngineSpec.Kind.ROCKSDB) {
            return RocksDbEngine.open(dir, o.engineOptions(), o.durability());
        }
        return new BellowsEngine(Engine.open(dir, o.bellowsOptions()), o.durability());
    }

    /** Opens an engine in a store directory. */
    interface Opener {
        BenchEngine open(Path dir, BenchOptions options);
    }

    /**
     * Runs {@code o} on engines opened by {@code opener}, then writes --json and --out files.
     *
     * @param progressTo where to draw progress bars, or null for none
     */
    static List<WorkloadResult> run(BenchOptions o, PrintStream out, PrintStream progressTo, Opener opener) {
        ReportPrinter report = new ReportPrinter(out);
        List<WorkloadResult> results = new ArrayList<>();
        try (BenchDirectory dir = BenchDirectory.prepare(o.db(), o.useExistingDb());
                CsvReport csv = o.csv() == null ? null : CsvReport.open(o.csv())) {
            report.printConfiguration(o, dir.path(), dir.temporary());
            KeyCodec keys = new KeyCodec(o.keySize());
            byte[] valuePool = ValueGenerator.pool(o.seed(), o.valueSize());
            SplittableRandom random = new SplittableRandom(o.seed());
            AtomicLong records = new AtomicLong(o.num());
            long openStart = System.nanoTime();
            BenchEngine db = opener.open(dir.path(), o);
            long openNanos = System.nanoTime() - openStart;
            try {
                report.printTableIo(db.stats().io().tableIoMode(), openNanos);
                report.printResultHeader();
                boolean empty = !o.useExistingDb();
                int replays = 0;
                for (Workload w : o.benchmarks()) {
                    if (w.freshDb() && !empty) {
                        db.close();
                        db = null;
                        dir.wipe();
                        records.set(o.num());
                        db = opener.open(dir.path(), o);
                    }
                    empty = false;
                    TraceReplay replay = w == Workload.REPLAY ? new TraceReplay(db, o, o.traces().get(replays++), progressTo)
                            : null;
                    WorkloadResult r = replay != null ? replay.run()
                            : new WorkloadRunner(db, o, keys, valuePool, records, progressTo).run(w, random.split());
                    results.add(r);
                    report.printResult(r);
                    if (replay != null && r.ran()) {
                        out.println(replay.describe());
                    }
                    if (r.ran()) {
                        printDetails(o, report, out, db, r);
                    }
                    if (csv != null) {
                        csv.write(r);
                    }
                    if (o.json() != null) {
                        // NB: rewritten after every workload, so a JVM that dies later keeps what it measured.
                        ResultJson.write(o.json(), o.engine().label(), List.of(engineRun(o, results)));
                    }
                }
            } finally {
                if (db != null) {
                    db.close();
                }
            }
            report.printSummary(results);
            ComparisonReport.printWarnings(out, List.of(engineRun(o, results)));
        }
        writeFiles(o, out, List.of(engineRun(o, results)), 0);
        return results;
    }

    private static EngineRun engineRun(BenchOptions o, List<WorkloadResult> results) {
        return new EngineRun(o.engine().label(), o.bellowsOptions().toString(), results);
    }

    /** The lines under a workload's row: engine, process, MemStore, the settle after it, latencies. */
    private static void printDetails(BenchOptions o, ReportPrinter report, PrintStream out, BenchEngine db,
            WorkloadResult r) {
        report.printEngineStats(r.statsBefore(), r.stats());
        report.printProcess(r);
        if (o.engine().kind() == EngineSpec.Kind.BELLOWS) {
            printMemStore(out, r.own(), r.gcMillis(), o.bellowsOptions().memoryLayout());
        }
        if (o.settleSeconds() > 0 && r.workload().settles()) {
            settle(db, o.settleSeconds(), out);
            report.printSettled(r.stats(), db.stats());
        }
        if (o.histogram()) {
            report.printHistogram(r);
        }
    }

    /**
     * Waits until a second passes with no compaction finishing, no compaction output written, none
     * running and no compaction bytes pending by the engine's estimate (a long compaction writes its
     * output in a second without finishing; FLSM and LSM_TRIE estimate no pending bytes, so without the
     * running count a settle once ended while two of their compactions were still writing 866 MiB), or
     * {@code maxSeconds} pass, so that write and space amplification are compared at rest rather than
     * mid-backlog.
     */
    private static void settle(BenchEngine db, long maxSeconds, PrintStream out) {
        long start = System.nanoTime();
        long deadline = start + maxSeconds * 1_000_000_000L;
        long compactions = -1;
        long written = -1;
        while (System.nanoTime() < deadline) {
            EngineStats s = db.stats();
            if (s.background().compactions() == compactions && s.io().compactionBytesWritten() == written
                    && s.background().pendingCompactionBytes() == 0 && s.background().runningCompactions() == 0) {
                break;
            }
            compactions = s.background().compactions();
            written = s.io().compactionBytesWritten();
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        out.printf(Locale.ROOT, "    settled: compaction idle after %.1f s (limit %d s)%n",
                (System.nanoTime() - start) / 1e9, maxSeconds);
    }

    /** Writes --json, and --out's results.json, results.csv and charts, for {@code runs}. */
    static void writeFiles(BenchOptions o, PrintStream out, List<EngineRun> runs, int baseline) {
        String baselineLabel = runs.get(baseline).engine();
        if (o.json() != null) {
            ResultJson.write(o.json(), baselineLabel, runs);
        }
        if (o.out() != null) {
            ResultJson.write(o.out().resolve("results.json"), baselineLabel, runs);
            ComparisonReport.writeCsv(o.out().resolve("results.csv"), runs, baseline);
            List<Path> charts = Charts.write(o.out(), runs);
            out.println();
            out.println("Results in " + o.out() + ": results.json, results.csv and " + charts.size() + " charts"
                    + (charts.contains(o.out().resolve("write-amp.png")) ? ""
                    : " (no write-amplification chart: no configuration wrote a table)"));
        }
    }
}
