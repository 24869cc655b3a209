package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's orchestration and exit codes, on {@link ModelEngine} stores. */
class BellowsBenchTest {
    private static final List<Workload> DEFAULT_WORKLOADS = Workload.parseList(BenchFlags.DEFAULT_BENCHMARKS);

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void helpExitsZero() {
        assertEquals(0, execute("--help"));
        assertTrue(text(out).contains("--benchmarks=LIST"));
    }

    @Test
    void badFlagsExitTwoWithTheReason() {
        assertEquals(2, execute("--num=-1"));
        assertTrue(text(err).contains("--num must be between 1"), text(err));
        assertTrue(text(err).contains("--help"));
        assertEquals(2, execute("--frobnicate"));
    }

    @Test
    void nonEmptyDbExitsTwo() throws IOException {
        Files.writeString(tmp.resolve("somefile"), "x");
        assertEquals(2, execute("--db=" + tmp, "--num=10"));
        assertTrue(text(err).contains("is not empty"), text(err));
        assertTrue(Files.exists(tmp.resolve("somefile")), "nothing deleted");
    }

    @Test
    void allWorkloadsRunInOrderWithFreshStoresForFillsAndCsv() throws IOException {
        Path csv = tmp.resolve("out/results.csv");
        Path db = tmp.resolve("db");
        List<ModelEngine> opened = new ArrayList<>();
        BenchOptions o = BenchFlags.parse("--num=2000", "--db=" + db, "--csv=" + csv, "--histogram", "--threads=2");
        List<WorkloadResult> results = BellowsBench.run(o, new PrintStream(out, true, StandardCharsets.UTF_8),
                (dir, options) -> {
                    assertEquals(db, dir);
                    ModelEngine m = new ModelEngine();
                    opened.add(m);
                    return m;
                });
        assertEquals(DEFAULT_WORKLOADS.size(), results.size());
        for (int i = 0; i < results.size(); i++) {
            assertEquals(DEFAULT_WORKLOADS.get(i), results.get(i).workload());
            assertTrue(results.get(i).ops() > 0, results.get(i).workload() + " did work");
        }
        assertEquals(2, opened.size(), "the store is reopened empty for fillrandom, after fillseq");
        assertTrue(opened.get(0).closed && opened.get(1).closed);
        WorkloadResult readrandom = results.get(Workload.READRANDOM.ordinal());
        assertEquals(400, readrandom.found());
        assertEquals(0, readrandom.notFound());

        String report = text(out);
        assertTrue(report.contains("table I/O   model"), report);
        assertTrue(report.contains("machine"));
        assertTrue(report.contains("Summary"));
        assertTrue(report.contains("Percentile"), "--histogram prints distributions");
        for (Workload w : DEFAULT_WORKLOADS) {
            assertTrue(report.contains("\n" + w.flagName() + " "), "report row for " + w.flagName());
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvReport.HEADER, lines.get(0));
        assertEquals(1 + DEFAULT_WORKLOADS.size(), lines.size());
        assertTrue(Files.isDirectory(db), "a given --db is kept");
    }

    @Test
    void existingStoreIsNotReopenedOrWiped() throws IOException {
        Files.writeString(tmp.resolve("CURRENT"), "x");
        List<ModelEngine> opened = new ArrayList<>();
        BenchOptions o = BenchFlags.parse("--num=100", "--db=" + tmp, "--use_existing_db",
                "--benchmarks=readrandom,readseq");
        List<WorkloadResult> results = BellowsBench.run(o, new PrintStream(out, true, StandardCharsets.UTF_8),
                (dir, options) -> {
                    ModelEngine m = new ModelEngine();
                    opened.add(m);
                    return m;
                });
        assertEquals(1, opened.size());
        assertEquals(20, results.get(0).notFound(), "the model store starts empty");
        assertTrue(Files.exists(tmp.resolve("CURRENT")));
        assertFalse(text(out).contains("temporary"));
    }

    private int execute(String... args) {
        return BellowsBench.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
