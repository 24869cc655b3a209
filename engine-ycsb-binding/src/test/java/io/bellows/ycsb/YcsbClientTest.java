package io.bellows.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.bellows.engine.internal.trace.TraceFormat;
import io.bellows.engine.internal.trace.TraceReader;
import io.bellows.engine.internal.trace.TraceRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real YCSB client ({@code site.ycsb.Client}, whose main ends in System.exit) in a child JVM on this
 * test's class path, loading and running the shipped workloads A and E at small scale, judged by YCSB's own
 * report.
 */
class YcsbClientTest {
    private static final int RECORDS = 2000;
    private static final int OPERATIONS = 2000;

    @TempDir
    Path tmp;

    @Test
    void workloadALoadsThenRunsWithVerifiedReads() throws Exception {
        Path dir = tmp.resolve("a");
        // dataintegrity makes YCSB write values derived from key and field and check every read against them.
        Map<String, Long> load = ycsb("-load", "workloada", dir, "-p", "dataintegrity=true");
        assertEquals(RECORDS, count(load, "[INSERT], Operations"));
        assertEquals(RECORDS, count(load, "[INSERT], Return=OK"));

        Map<String, Long> run = ycsb("-t", "workloada", dir, "-p", "dataintegrity=true");
        long reads = count(run, "[READ], Operations");
        long updates = count(run, "[UPDATE], Operations");
        assertEquals(OPERATIONS, reads + updates);
        assertEquals(reads, count(run, "[READ], Return=OK"));
        assertEquals(updates, count(run, "[UPDATE], Return=OK"));
        assertEquals(reads, count(run, "[VERIFY], Return=OK"), "every read returned the values YCSB wrote");
        assertTrue(reads > OPERATIONS / 3 && updates > OPERATIONS / 3, "50/50 mix: " + run);
    }

    @Test
    void workloadEScansAndInserts() throws Exception {
        Path dir = tmp.resolve("e");
        Map<String, Long> load = ycsb("-load", "workloade", dir);
        assertEquals(RECORDS, count(load, "[INSERT], Return=OK"));

        Path trace = tmp.resolve("run-e.trace");
        Map<String, Long> run = ycsb("-t", "workloade", dir, "-p", "bellows.trace=" + trace);
        long scans = count(run, "[SCAN], Operations");
        long inserts = count(run, "[INSERT], Operations");
        assertEquals(OPERATIONS, scans + inserts);
        assertEquals(scans, count(run, "[SCAN], Return=OK"));
        assertEquals(inserts, count(run, "[INSERT], Return=OK"));
        assertTrue(scans > OPERATIONS * 8 / 10 && inserts > 0, "95/5 mix: " + run);

        // The run's trace (bellows.trace): a scan is a cursor positioned at its first key, an insert a put.
        long positioned = 0;
        long puts = 0;
        Set<Integer> threads = new HashSet<>();
        try (TraceReader r = TraceReader.open(trace)) {
            for (TraceReader.Block b = r.next(); b != null; b = r.next()) {
                threads.add(b.thread());
                for (TraceRecord rec : b.records()) {
                    if (rec instanceof TraceRecord.CursorMove m && m.kind() == TraceFormat.SEEK_TO_FIRST) {
                        positioned++;
                    } else if (rec instanceof TraceRecord.Put) {
                        puts++;
                    }
                }
            }
            assertEquals(-1, r.tornAt(), "closed at cleanup, not torn");
        }
        assertEquals(scans, positioned);
        assertEquals(inserts, puts);
        assertEquals(2, threads.size(), "YCSB's two client threads");
    }

    /**
     * Runs one YCSB phase with two client threads and returns the report's counters ("[OP], Name" to value).
     * Fails on a non-zero exit, on an init failure (YCSB prints it and reports no operations), or on any
     * operation that did not return OK.
     */
    private Map<String, Long> ycsb(String phase, String workload, Path dir, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "site.ycsb.Client", phase,
                "-db", BellowsClient.class.getName(),
                "-P", workloadFile(workload).toString(),
                "-threads", "2",
                "-p", "recordcount=" + RECORDS,
                "-p", "operationcount=" + OPERATIONS,
                "-p", "bellows.dir=" + dir,
                "-p", "bellows.memstore_size=512k"));
        cmd.addAll(List.of(extra));
        Path out = tmp.resolve(workload + phase + ".out");
        Path err = tmp.resolve(workload + phase + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("YCSB " + phase + " " + workload + " did not finish in 60 s; stderr:\n" + Files.readString(err));
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        System.out.println("YCSB " + phase + " " + workload + ":\n" + stdout);
        assertEquals(0, p.exitValue(), stderr);
        assertTrue(!stderr.contains("Exception"), "YCSB " + phase + " " + workload + " stderr:\n" + stderr);

        Map<String, Long> counters = new TreeMap<>();
        for (String line : stdout.split("\n")) {
            String[] parts = line.split(", ");
            if (parts.length == 3 && (parts[1].equals("Operations") || parts[1].startsWith("Return="))) {
                counters.put(parts[0] + ", " + parts[1], Long.parseLong(parts[2].trim()));
                assertTrue(!parts[0].endsWith("-FAILED"), line);
                assertTrue(!parts[1].startsWith("Return=") || parts[1].equals("Return=OK"), line);
            }
        }
        return counters;
    }

    private static long count(Map<String, Long> report, String counter) {
        Long n = report.get(counter);
        if (n == null) {
            fail("YCSB reported no " + counter + ": " + report);
        }
        return n;
    }

    private static Path workloadFile(String name) throws URISyntaxException, IOException {
        Path file = Path.of(YcsbClientTest.class.getResource("/workloads/" + name).toURI());
        assertTrue(Files.readString(file).contains("workload=site.ycsb.workloads.CoreWorkload"));
        return file;
    }
}
