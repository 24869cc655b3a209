package io.bellows.engine.jcstress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * The short CI mode of the jcstress proofs (docs/concurrency.md): every test once, in one JVM mode, for a
 * short time, as a child JVM; then every result is graded from jcstress's result file. The build fails on
 * any FORBIDDEN outcome, any error (an exception in an actor or arbiter, a timeout, a crashed fork) and
 * any test that did not run. The full run is {@code java -jar engine-jcstress/target/jcstress.jar}.
 */
class ConcurrencyProofsTest {
    /**
     * sanity mode (no heap pre-touch, one fork, one iteration) with 100 ms per test over 64 x 10 states;
     * one JVM mode (tiered JIT; serial GC so no GC thread competes with the two actors on two cores) and
     * one compilation of both actors: 2 forks per test (jcstress adds both biased-locking settings).
     */
    static final List<String> CI_MODE = List.of("-m", "sanity", "-sc", "false", "-jvmArgs", "-XX:+UseSerialGC",
            "-time", "100", "-strideSize", "64", "-strideCount", "10");
    /** A deadlock in a test is a failure too; the CI mode takes about a minute. */
    private static final long TIMEOUT_MINUTES = 10;

    @Test
    void everyProofPassesInTheShortMode() throws Exception {
        Path dir = Path.of("target", "jcstress-ci").toAbsolutePath();
        deleteTree(dir);
        Files.createDirectories(dir);
        Path console = dir.resolve("console.txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.openjdk.jcstress.Main"));
        command.addAll(CI_MODE);
        command.addAll(List.of("-r", dir.resolve("results").toString()));
        long start = System.nanoTime();
        // The child writes its result blob into its working directory.
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("jcstress did not finish in " + TIMEOUT_MINUTES + " minutes (a deadlocked test?); see " + console);
        }
        System.out.printf("jcstress CI mode: %.1f s, console in %s%n", (System.nanoTime() - start) / 1e9, console);

        List<TestResult> results = read(resultBlob(dir));
        List<String> failures = new ArrayList<>();
        Set<String> ran = new TreeSet<>();
        for (TestResult r : results) {
            ran.add(r.getName());
            if (!ReportUtils.statusToPassed(r)) {
                failures.add(ReportUtils.statusToLabel(r) + " " + r.getName() + " " + r.getConfig().jvmArgs
                        + ": " + r.grading().failureMessages + " " + r.getMessages());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failing jcstress results (see " + console + "):\n"
                + String.join("\n", failures));
        assertEquals(0, p.exitValue(), "jcstress exit status; see " + console);
        assertEquals(new TreeSet<>(TestList.tests()), ran, "tests with results");
    }

    private static Path resultBlob(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> blobs = s.filter(f -> f.getFileName().toString().matches("jcstress-results-.*\\.bin\\.gz")).toList();
            assertEquals(1, blobs.size(), "jcstress result files in " + dir);
            return blobs.get(0);
        }
    }

    private static List<TestResult> read(Path blob) throws Exception {
        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(blob.toString(), collector);
        try {
            reader.dump();
        } finally {
            reader.close();
        }
        return new ArrayList<>(collector.getTestResults());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
