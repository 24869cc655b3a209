package io.bellows.engine.internal.db;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.io.DefaultFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Not a test: a command-line probe of group commit, for docs/benchmarks.md. THREADS writers each make
 * PER_THREAD SYNC puts (16-byte keys, 100-byte values) into a fresh store under DIR, and it prints the
 * writes per second and the writes each WAL force covered (counted by the fault-injecting file
 * system's call log), the figure group commit is about: unlike throughput it hardly depends on how
 * loaded the disk is. Run with bellows-bench.jar and the test classes on the class path.
 */
public final class GroupCommitProbe {
    private GroupCommitProbe() {}

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory(Path.of(args[2]), "group-commit-probe-");
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(DefaultFileSystem.forDirectory(dir, true));
        // No background force: every force counted is a write group's.
        EngineImpl db = EngineImpl.open(dir, EngineOptions.builder().walSyncInterval(Duration.ofHours(1)).build(), fs);
        long before = fs.operations(FaultInjectingFileSystem.Op.SYNC, ".*\\.log");
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts.add(new Thread(() -> {
                byte[] value = new byte[100];
                for (int i = 0; i < perThread; i++) {
                    db.put(String.format("t%03d-%010d", id, i).getBytes(), value, WriteOptions.sync());
                }
            }));
        }
        long t0 = System.nanoTime();
        for (Thread t : ts) {
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long forces = fs.operations(FaultInjectingFileSystem.Op.SYNC, ".*\\.log") - before;
        long writes = (long) threads * perThread;
        System.out.printf("threads %d: %.0f SYNC writes/s, %.2f writes per WAL force, %.0f forces/s%n", threads,
                writes / seconds, (double) writes / forces, forces / seconds);
        db.close();
        delete(dir);
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
