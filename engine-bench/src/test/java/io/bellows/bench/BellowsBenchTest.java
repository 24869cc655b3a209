package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Cursor;
import io.bellows.engine.ReadOptions;
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

    @Test
    void aStoreWithoutCursorsReportsScanWorkloadsAsNotSupportedAndRunsTheRest() throws IOException {
        Path json = tmp.resolve("r.json");
        Path csv = tmp.resolve("r.csv");
        ModelEngine store = new RefusingCursors();
        BenchOptions o = BenchFlags.parse("--num=500", "--benchmarks=fillrandom,ycsbe,seekrandom,readrandom",
                "--json=" + json, "--csv=" + csv, "--out=" + tmp.resolve("out"));
        List<WorkloadResult> results = BellowsBench.run(o, new PrintStream(out, true, StandardCharsets.UTF_8),
                (dir, options) -> store);
        assertEquals(List.of(WorkloadResult.Outcome.RAN, WorkloadResult.Outcome.NOT_SUPPORTED,
                WorkloadResult.Outcome.NOT_SUPPORTED, WorkloadResult.Outcome.RAN),
                results.stream().map(WorkloadResult::outcome).toList());
        assertEquals(500, store.map.size(), "ycsbe refused before it started: none of its inserts happened");
        assertEquals(100, results.get(3).found(), "readrandom ran after the refusals");
        assertTrue(text(out).contains("\nycsbe            not supported: no key order in this store\n"), text(out));
        List<EngineRun> back = ResultJson.read(json);
        assertEquals(WorkloadResult.Outcome.NOT_SUPPORTED, back.get(0).results().get(2).outcome());
        assertTrue(Files.readAllLines(csv).get(2).endsWith(",not supported"));
        assertTrue(Files.exists(tmp.resolve("out/ops-per-sec.png")));
        assertFalse(text(out).contains("never wrote a table"), "the model store reports tables");
    }

    @Test
    void resultsOfFinishedWorkloadsAreWrittenBeforeALaterOneFails() {
        Path json = tmp.resolve("r.json");
        ModelEngine store = new ModelEngine() {
            @Override
            public int get(byte[] key, byte[] dst, int off, ReadOptions options) {
                throw new IllegalStateException("disk on fire");
            }
        };
        BenchOptions o = BenchFlags.parse("--num=300", "--benchmarks=fillseq,overwrite,readrandom", "--json=" + json);
        assertThrows(IllegalStateException.class, () -> BellowsBench.run(o,
                new PrintStream(out, true, StandardCharsets.UTF_8), (dir, options) -> store));
        List<WorkloadResult> kept = ResultJson.read(json).get(0).results();
        assertEquals(List.of(Workload.FILLSEQ, Workload.OVERWRITE), kept.stream().map(WorkloadResult::workload).toList());
        assertEquals(300, kept.get(1).ops());

        EngineRun crashed = CompareRunner.childRun("bellows:LEVELED/NONE", json, 137, o.benchmarks());
        assertEquals(3, crashed.results().size(), "the workloads it did not reach are cells too");
        assertTrue(crashed.results().get(1).ran());
        assertEquals(WorkloadResult.Outcome.FAILED, crashed.results().get(2).outcome());
        assertEquals("its JVM exited with code 137 (killed by signal 9)", crashed.results().get(2).reason());
        EngineRun never = CompareRunner.childRun("rocksdb", tmp.resolve("missing.json"), 2, o.benchmarks());
        assertTrue(never.results().stream().allMatch(r -> r.outcome() == WorkloadResult.Outcome.FAILED));
        assertEquals("its JVM exited with code 2 (its error is above)", never.results().get(0).reason());
    }

    /** A store that refuses cursors, as LSM_TRIE does. */
    private static final class RefusingCursors extends ModelEngine {
        @Override
        public Cursor cursor(ReadOptions options) {
            throw new UnsupportedOperationException("no key order in this store");
        }
    }

    private int execute(String... args) {
        return BellowsBench.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
