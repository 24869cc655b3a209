package io.bellows.stress;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The crash cycles of one store and scheme. A cycle is one to three runs, each a child JVM that
 * opens the store with freshly drawn options and workload and is killed with SIGKILL (some kills land
 * in the open, i.e. in recovery of the previous run's WAL), then an open in this JVM with other drawn
 * options that checks the store against the runs' op logs ({@link Verifier}). The state it finds is
 * where the next cycle starts. Every choice of a cycle comes from {@code seed} and the cycle number,
 * so a printed cycle can be rerun with the same options (the kill moments are timing, not seeded).
 */
final class SchemeStress {
    /** The settings that are the same for every cycle. */
    record Settings(long seed, int maxThreads, long killMinMs, long killMaxMs, List<String> childJvmArgs, boolean keepCycles) {}

    /** What one cycle did, for the final summary. */
    record CycleReport(int runs, int killsInOpen, long attempted, long acked, long flushes, long compactions) {}

    private final CompactionStyle scheme;
    private final Path root;
    private final Path db;
    private final Settings settings;
    private final StoreShape shape;
    private final KeySpace ks;
    private final PrintStream out;
    private KeyStates states;
    private int cycle;

    SchemeStress(CompactionStyle scheme, Path root, Settings settings, PrintStream out) throws IOException {
        this.scheme = scheme;
        this.root = root;
        this.db = root.resolve("db");
        this.settings = settings;
        this.out = out;
        this.shape = StoreShape.random(scheme, new Random(schemeSeed()));
        this.ks = shape.keySpace();
        this.states = new KeyStates(ks);
        Files.createDirectories(root);
        out.println("[" + scheme + "] store " + db + ": " + shape.describe());
    }

    private long schemeSeed() {
        return Values.mix(settings.seed() * 31 + scheme.ordinal());
    }

    CompactionStyle scheme() {
        return scheme;
    }

    Path root() {
        return root;
    }

    int cycles() {
        return cycle;
    }

    /** Runs the next cycle; a broken guarantee is thrown with the cycle's files kept. */
    CycleReport cycle() throws StressFailure, IOException, InterruptedException {
        cycle++;
        String tag = "[" + scheme + "] cycle " + cycle;
        Random r = new Random(Values.mix(schemeSeed() + cycle));
        double x = r.nextDouble();
        int runs = x < 0.7 ? 1 : x < 0.9 ? 2 : 3;
        Path cycleDir = root.resolve(String.format("cycles/%06d", cycle));
        List<Path> runDirs = new ArrayList<>();
        int killsInOpen = 0;
        long flushes = 0;
        long compactions = 0;
        long t0 = System.nanoTime();
        for (int run = 0; run < runs; run++) {
            OpenConfig open = OpenConfig.random(shape, r);
            Workload load = Workload.random(shape, settings.maxThreads(), r);
            boolean duringOpen = r.nextDouble() < (run == 0 ? 0.12 : 0.4);
            long delay = duringOpen ? r.nextInt(300)
                    : settings.killMinMs() + (long) (r.nextDouble() * (settings.killMaxMs() - settings.killMinMs()));
            ChildRun.KillPlan plan = new ChildRun.KillPlan(duringOpen, delay);
            long childSeed = r.nextLong();
            Path runDir = cycleDir.resolve("run-" + run);
            Files.createDirectories(runDir);
            runDirs.add(runDir);
            Path config = writeConfig(runDir, open, load, run, childSeed);
            out.println(tag + " run " + run + "/" + runs + ": kill=" + plan + " seed=" + childSeed);
            out.println("    open: " + open.describe());
            out.println("    load: " + load.describe());
            ChildRun.Outcome o = ChildRun.run(settings.childJvmArgs(), config, runDir, plan);
            if (o.failure() != null) {
                throw new StressFailure("child run failed", tag + " run " + run, "a child that runs until SIGKILL",
                        o.failure(), "");
            }
            killsInOpen += o.killedInOpen() ? 1 : 0;
            flushes += o.progress("flushes");
            compactions += o.progress("compactions");
            out.println("    killed " + (o.killedInOpen() ? "during open" : "after open (" + o.openMs() + " ms), at "
                    + (o.lastProgress() == null ? "start" : o.lastProgress())));
        }
        OpenConfig check = OpenConfig.random(shape, r);
        out.println(tag + " check open: " + check.describe());
        History h = History.read(ks, runDirs);
        String[] store = new String[1];
        Verifier.Result result = check(check.toOptions(shape), h, tag, store);
        states = result.states();
        out.printf("%s ok in %.1f s: %d writes attempted, %d acked (%d SYNC/ASYNC); %d of %d keys and groups present;"
                + " %d with a durable ack this cycle, %d of them hold a later write; %s%n", tag,
                (System.nanoTime() - t0) / 1e9, h.attempted(), h.acked(), h.durable(), result.present(),
                ks.singles() + ks.groups(), result.ackedFloors(), result.beyondAck(), store[0]);
        if (!settings.keepCycles()) {
            deleteTree(cycleDir);
        }
        return new CycleReport(runs, killsInOpen, h.attempted(), h.acked(), flushes, compactions);
    }

    /** Opens the store and checks it; {@code store[0]} gets a line on its files and live tables. */
    private Verifier.Result check(EngineOptions options, History h, String tag, String[] store) throws StressFailure {
        Engine e;
        try {
            e = Engine.open(db, options);
        } catch (RuntimeException ex) {
            throw new StressFailure("reopen after the kill failed", tag, "the store opens", ex.toString(), stackOf(ex));
        }
        try (e) {
            Verifier.Result result;
            try {
                result = Verifier.verify(e, ks, scheme != CompactionStyle.LSM_TRIE, states, h);
            } catch (StressFailure f) {
                String context;
                try {
                    context = describeCheckOpen(e.stats());
                } catch (RuntimeException ex) {
                    // The failure found is what matters: a store too broken to describe must not hide it.
                    context = "  check open: its stats failed: " + ex + "\n";
                }
                throw f.withContext(context);
            }
            store[0] = describeStore(e.stats().levels());
            return result;
        } catch (RuntimeException ex) {
            throw new StressFailure("read after the kill failed", tag, "reads succeed", ex.toString(), stackOf(ex));
        }
    }

    /**
     * What the checking open replayed and the levels it found (background jobs may have run since): tells a
     * write lost from the WAL from one hidden by a table, before anyone opens the kept store.
     */
    private String describeCheckOpen(EngineStats stats) {
        EngineStats.Recovery r = stats.recovery();
        StringBuilder sb = new StringBuilder("  check open: recovery replayed ").append(r.recordsReplayed())
                .append(" records from ").append(r.walFiles()).append(" WAL files (torn tail ").append(r.tornTailBytes())
                .append(" bytes, ").append(r.corruptRegions()).append(" corrupt regions); last sequence ")
                .append(stats.lastSequence()).append("\n  levels:");
        List<EngineStats.Level> levels = stats.levels().perLevel();
        for (int i = 0; i < levels.size(); i++) {
            sb.append(" L").append(i).append('=').append(levels.get(i).tables());
        }
        sb.append("\n  ").append(describeStore(stats.levels())).append('\n');
        return sb.toString();
    }

    /** The store's files beside its live tables: a trend of leaked files shows over a long run. */
    private String describeStore(EngineStats.Levels levels) {
        int tables = 0;
        for (EngineStats.Level l : levels.perLevel()) {
            tables += l.tables();
        }
        long files = 0;
        long bytes = 0;
        try (Stream<Path> list = Files.list(db)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                try {
                    bytes += Files.size(p);
                    files++;
                } catch (NoSuchFileException gone) {
                    // a background job deleted it since the listing: not a file of the store any more
                }
            }
        } catch (IOException ex) {
            return "store files unreadable: " + ex;
        }
        return String.format("store %d files, %.1f MiB; %d live tables, %.1f MiB", files, bytes / 1048576.0, tables,
                levels.liveTableBytes() / 1048576.0);
    }

    private Path writeConfig(Path runDir, OpenConfig open, Workload load, int run, long childSeed) throws IOException {
        Properties p = new Properties();
        shape.store(p);
        open.store(p, "open.");
        load.store(p);
        p.setProperty("cycle", Integer.toString(cycle));
        p.setProperty("run", Integer.toString(run));
        p.setProperty("seed", Long.toString(childSeed));
        p.setProperty("db", db.toAbsolutePath().toString());
        p.setProperty("logDir", runDir.toAbsolutePath().toString());
        Path file = runDir.resolve("run.properties");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "bellows-stress " + scheme + " cycle " + cycle + " run " + run);
        }
        return file;
    }

    private static String stackOf(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c == t ? "    " : "    caused by: ").append(c).append('\n');
            StackTraceElement[] st = c.getStackTrace();
            for (int i = 0; i < Math.min(st.length, 12); i++) {
                sb.append("        at ").append(st[i]).append('\n');
            }
        }
        return sb.toString();
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
