package io.bellows.stress;

import io.bellows.engine.CompactionStyle;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bellows-stress}: Bellows' db_crashtest. Cycle after cycle, per scheme, a child JVM writes to a
 * store on several threads and is killed with SIGKILL at a random moment; the store is reopened and
 * checked against what the child logged it had attempted and had been acknowledged. The schemes' cycles
 * alternate, each scheme on its own store. Exits 0 when every cycle passed, 1 at the first broken
 * guarantee (printed with the seed, cycle, key, expected and found; the store is kept), 2 on bad usage.
 */
@Command(name = "bellows-stress", sortOptions = false,
        description = "Crash cycles: SIGKILL a child JVM writing to a store, reopen, check every acknowledged write "
                + "and every batch's atomicity (docs/stress.md).")
public final class BellowsStress implements Callable<Integer> {
    @Option(names = "--schemes", split = ",",
            description = "Schemes to stress, each on its own store, cycles alternating (default: every CompactionStyle).")
    private List<CompactionStyle> schemes;

    @Option(names = "--cycles", defaultValue = "100",
            description = "Cycles per scheme; 0: until --minutes (default: ${DEFAULT-VALUE}).")
    private int cycles;

    @Option(names = "--minutes", defaultValue = "0", description = "Stop starting cycles after this many minutes; 0: no limit.")
    private double minutes;

    @Option(names = "--seed", description = "Seed of every choice (default: random, printed).")
    private Long seed;

    @Option(names = "--dir", description = "Directory for the stores and logs (default: a new one under java.io.tmpdir).")
    private Path dir;

    @Option(names = "--kill-min-ms", defaultValue = "100",
            description = "Shortest run before a kill after the open, ms (default: ${DEFAULT-VALUE}).")
    private long killMinMs;

    @Option(names = "--kill-max-ms", defaultValue = "4000",
            description = "Longest run before a kill after the open, ms (default: ${DEFAULT-VALUE}).")
    private long killMaxMs;

    @Option(names = "--max-threads", defaultValue = "8",
            description = "Most writer threads in a child (default: ${DEFAULT-VALUE}).")
    private int maxThreads;

    @Option(names = "--child-jvm-args", defaultValue = "-Xmx768m -ea",
            description = "JVM options of each child, space-separated (default: ${DEFAULT-VALUE}).")
    private String childJvmArgs;

    @Option(names = "--keep", description = "Keep stores and cycle logs after a successful run too.")
    private boolean keep;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help and exit.")
    private boolean help;

    private PrintStream out = System.out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BellowsStress()).execute(args));
    }

    /** Runs with output to {@code out} (tests). */
    static int run(PrintStream out, String... args) {
        BellowsStress s = new BellowsStress();
        s.out = out;
        return new CommandLine(s).execute(args);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (schemes == null) {
            schemes = List.of(CompactionStyle.values());
        }
        if (schemes.isEmpty() || cycles < 0 || minutes < 0 || (cycles == 0 && minutes == 0) || killMinMs < 0
                || killMaxMs < killMinMs || maxThreads < 1 || maxThreads > 64) {
            out.println("bad options: need schemes, --cycles >= 0 (or --minutes > 0), 0 <= --kill-min-ms <= --kill-max-ms,"
                    + " 1 <= --max-threads <= 64");
            return 2;
        }
        long s = seed != null ? seed : System.nanoTime() ^ ProcessHandle.current().pid() * 0x9E3779B97F4A7C15L;
        Path base = dir != null ? dir : Files.createTempDirectory("bellows-stress-");
        for (CompactionStyle scheme : schemes) {
            if (Files.exists(base.resolve(scheme.name()))) {
                out.println("bad options: " + base.resolve(scheme.name()) + " exists (a stressed store of an earlier run);"
                        + " give another --dir");
                return 2;
            }
        }
        List<String> jvm = childJvmArgs.isBlank() ? List.of() : Arrays.asList(childJvmArgs.trim().split("\\s+"));
        out.println("bellows-stress seed=" + s + " dir=" + base + " schemes=" + schemes + " cycles=" + cycles + " minutes="
                + minutes + " kill=" + killMinMs + ".." + killMaxMs + "ms maxThreads=" + maxThreads + " child=" + jvm);
        out.println("replay the same cycle options with --seed=" + s);
        SchemeStress.Settings settings = new SchemeStress.Settings(s, maxThreads, killMinMs, killMaxMs, jvm, keep);
        List<SchemeStress> stores = new ArrayList<>();
        for (CompactionStyle scheme : schemes) {
            stores.add(new SchemeStress(scheme, base.resolve(scheme.name()), settings, out));
        }
        long t0 = System.nanoTime();
        long deadline = minutes > 0 ? t0 + (long) (minutes * 60e9) : Long.MAX_VALUE;
        long attempted = 0;
        long acked = 0;
        int runs = 0;
        int killsInOpen = 0;
        long flushes = 0;
        long compactions = 0;
        int done = 0;
        for (int c = 0; (cycles == 0 || c < cycles) && System.nanoTime() < deadline; c++) {
            for (SchemeStress st : stores) {
                try {
                    SchemeStress.CycleReport rep = st.cycle();
                    attempted += rep.attempted();
                    acked += rep.acked();
                    runs += rep.runs();
                    killsInOpen += rep.killsInOpen();
                    flushes += rep.flushes();
                    compactions += rep.compactions();
                    done++;
                } catch (StressFailure f) {
                    out.println();
                    out.println("FAILURE seed=" + s + " scheme=" + st.scheme() + " cycle=" + st.cycles());
                    out.println(f.getMessage());
                    out.println("store and logs kept in " + st.root() + " (cycle files under cycles/"
                            + String.format("%06d", st.cycles()) + ")");
                    out.println("rerun the same cycle options: --seed=" + s + " --schemes=" + st.scheme() + " --cycles="
                            + st.cycles());
                    out.flush();
                    return 1;
                }
            }
        }
        out.printf("PASSED seed=%d: %d cycles (%s), %d child runs (%d killed during open), %d writes attempted, %d acked;"
                + " the children ran %d flushes and %d compactions; %.0f s%n", s, done, schemes, runs, killsInOpen, attempted,
                acked, flushes, compactions, (System.nanoTime() - t0) / 1e9);
        if (!keep) {
            for (SchemeStress st : stores) {
                SchemeStress.deleteTree(st.root());
            }
            try {
                Files.deleteIfExists(base);
            } catch (DirectoryNotEmptyException e) {
                // --dir held other files before the run; only what the run made is removed
            }
        }
        return 0;
    }
}
