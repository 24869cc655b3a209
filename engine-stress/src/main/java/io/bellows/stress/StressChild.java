package io.bellows.stress;

import io.bellows.engine.Engine;
import io.bellows.engine.EngineStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The child JVM of one run: opens the store with the run's options, starts the workers and reports
 * progress on stdout until the parent kills it with SIGKILL. Lines it prints: {@code opening},
 * {@code opened <ms>}, {@code progress ops=... flushes=... compactions=...} every 100 ms, and
 * {@code FAILED <message>} before exiting with {@link #EXIT_FAILED} when a worker saw a wrong read or an
 * unexpected exception (also when the open fails). It never closes the store: the test is the crash.
 * When its stdin closes, the parent has gone, and it halts.
 */
public final class StressChild {
    static final int EXIT_FAILED = 3;
    static final int EXIT_ORPHANED = 4;

    private StressChild() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: StressChild <run.properties> (started by bellows-stress)");
            System.exit(2);
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        PrintStream out = System.out;
        Worker.Failure failure = (message, cause) -> fail(out, message, cause);
        watchParent(System.in);
        StoreShape shape = StoreShape.load(p);
        OpenConfig open = OpenConfig.load(p, "open.");
        Workload load = Workload.load(p);
        int cycle = Integer.parseInt(p.getProperty("cycle"));
        int run = Integer.parseInt(p.getProperty("run"));
        long seed = Long.parseLong(p.getProperty("seed"));
        Path logDir = Path.of(p.getProperty("logDir"));
        Files.createDirectories(logDir);
        out.println("opening");
        out.flush();
        long t0 = System.nanoTime();
        Engine db;
        try {
            db = Engine.open(Path.of(p.getProperty("db")), open.toOptions(shape));
        } catch (RuntimeException e) {
            fail(out, "open failed: " + e, e);
            return;
        }
        out.println("opened " + (System.nanoTime() - t0) / 1_000_000);
        out.flush();
        List<Worker> workers = new ArrayList<>();
        long base = Counters.base(cycle, run);
        for (int t = 0; t < load.threads(); t++) {
            OpLog log = new OpLog(logDir.resolve(logName(t)));
            Worker w = new Worker(db, shape.keySpace(), load, t, base, log, Values.mix(seed + t), failure);
            workers.add(w);
            Thread th = new Thread(w, "stress-" + t);
            th.setDaemon(true);
            th.start();
        }
        while (true) {
            Thread.sleep(100);
            long ops = 0;
            for (Worker w : workers) {
                ops += w.ops();
            }
            EngineStats.Background bg = db.stats().background();
            out.println("progress ops=" + ops + " flushes=" + bg.flushes() + " compactions=" + bg.compactions()
                    + " stalls=" + bg.stalls() + " errors=" + bg.errors());
            out.flush();
        }
    }

    static String logName(int thread) {
        return String.format("thread-%02d.log", thread);
    }

    private static void fail(PrintStream out, String message, Throwable cause) {
        synchronized (StressChild.class) {
            if (cause != null) {
                cause.printStackTrace();
            }
            System.err.flush();
            out.println("FAILED " + message.replace('\n', ' '));
            out.flush();
            Runtime.getRuntime().halt(EXIT_FAILED);
        }
    }

    private static void watchParent(InputStream in) {
        Thread t = new Thread(() -> {
            try {
                while (in.read() >= 0) {
                    // the parent writes nothing; a read returns only at end of stream
                }
            } catch (IOException e) {
                // a broken pipe also means the parent is gone
            }
            Runtime.getRuntime().halt(EXIT_ORPHANED);
        }, "parent-watch");
        t.setDaemon(true);
        t.start();
    }
}
