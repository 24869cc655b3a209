package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compare mode end to end: both engines, each in a child JVM, on tiny sizes; every output file. */
class CompareModeTest {
    @TempDir
    Path tmp;

    @Test
    void bothEnginesRunInChildJvmsAndEveryOutputIsWritten() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path results = tmp.resolve("out");
        Path csv = tmp.resolve("cmp.csv");
        int code = BellowsBench.execute(new String[] {"--engines=bellows:LEVELED/NONE,rocksdb", "--num=3000",
            "--benchmarks=fillrandom,readrandom,ycsbe", "--memstore_size=64K", "--out=" + results, "--csv=" + csv,
            "--db=" + tmp.resolve("db"), "--sample_ms=10"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));

        assertTrue(text.contains("[rocksdb] fillrandom"), "each child's report is echoed");
        assertTrue(text.contains("[bellows:LEVELED/NONE] readrandom"));
        assertTrue(text.contains("Comparison (ratios are engine / rocksdb)"));
        assertTrue(text.contains("rocksdb                       ") && text.contains("1.00x"), text);

        List<EngineRun> runs = ResultJson.read(results.resolve("results.json"));
        assertEquals(2, runs.size());
        assertEquals("bellows:LEVELED/NONE", runs.get(0).engine());
        assertEquals("rocksdb", runs.get(1).engine());
        for (EngineRun run : runs) {
            assertEquals(3, run.results().size());
            WorkloadResult fill = run.results().get(0);
            assertEquals(3000, fill.ops());
            assertTrue(fill.stats().io().flushBytesWritten() > 0, run.engine() + " flushed its 64K MemStore");
            assertTrue(fill.cpuNanos() > 0, "CPU time measured in the child");
            WorkloadResult read = run.results().get(1);
            assertEquals(600, read.found(), run.engine() + " finds every filled key");
        }

        List<String> lines = Files.readAllLines(results.resolve("results.csv"));
        assertEquals(ComparisonReport.CSV_HEADER, lines.get(0));
        assertEquals(1 + 3 * 2, lines.size());
        assertTrue(lines.get(2).startsWith("fillrandom,rocksdb,3000,") && lines.get(2).contains(",1.0000,"),
                "the baseline's ratio is 1: " + lines.get(2));
        assertEquals(lines, Files.readAllLines(csv), "--csv holds the comparison too");
        for (String line : lines) {
            assertEquals(ComparisonReport.CSV_HEADER.split(",").length, line.split(",", -1).length, line);
        }

        for (String chart : new String[] {"ops-per-sec.png", "latency-p99.png", "write-amp.png"}) {
            assertPng(results.resolve(chart));
        }
        assertTrue(Files.readString(results.resolve("rocksdb.log")).contains("table I/O"));
        assertTrue(Files.isDirectory(tmp.resolve("db/rocksdb")), "each engine's store under --db");
        assertTrue(Files.isDirectory(tmp.resolve("db/bellows-LEVELED-NONE")));
    }

    /**
     * LSM_TRIE refuses ycsbe's cursors and rocksdb's JVM exits with code 2 (its --db is not empty): both
     * are marked in every output while everything else is still compared. At this --num nothing leaves
     * the MemStores, which compare mode warns of, and no write-amplification chart is drawn empty.
     */
    @Test
    void oneConfigurationsTroubleCostsNoOtherResults() throws IOException {
        Files.createDirectories(tmp.resolve("db/rocksdb"));
        Files.writeString(tmp.resolve("db/rocksdb/somefile"), "x");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path results = tmp.resolve("out");
        int code = BellowsBench.execute(new String[] {"--engines=bellows:LEVELED/NONE,bellows:LSM_TRIE/NONE,rocksdb",
            "--num=2000", "--benchmarks=fillrandom,ycsbe,readrandom", "--out=" + results, "--db=" + tmp.resolve("db")},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertEquals(1, code, "a configuration failed: " + err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("[bellows:LSM_TRIE/NONE] ycsbe            not supported: cursors are not supported by"
                + " LSM_TRIE stores"), text);
        assertTrue(text.contains("== rocksdb failed: its JVM exited with code 2 (its error is above); the other"
                + " configurations go on"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches(" +bellows:LSM_TRIE/NONE +not supported")), text);
        assertEquals(2 * 3, text.lines().filter(l -> l.matches("(fillrandom|ycsbe|readrandom)? +rocksdb +failed")).count(),
                "every cell of the failed configuration, in both tables: " + text);
        assertTrue(text.contains("ycsbe on bellows:LSM_TRIE/NONE: not supported, cursors are not supported"), text);
        assertTrue(text.contains("warning: bellows:LEVELED/NONE never wrote a table"), text);
        assertTrue(text.contains("warning: bellows:LSM_TRIE/NONE never wrote a table"), text);
        assertTrue(text.contains("failed: rocksdb, its JVM exited with code 2"), text);

        List<EngineRun> runs = ResultJson.read(results.resolve("results.json"));
        assertEquals(List.of("bellows:LEVELED/NONE", "bellows:LSM_TRIE/NONE", "rocksdb"),
                runs.stream().map(EngineRun::engine).toList());
        WorkloadResult trieScan = runs.get(1).results().get(1);
        assertEquals(WorkloadResult.Outcome.NOT_SUPPORTED, trieScan.outcome());
        assertEquals(400, runs.get(1).results().get(2).found(), "LSM_TRIE's readrandom ran after the refusal");
        assertTrue(runs.get(0).results().get(1).ran(), "LEVELED scans");
        assertTrue(runs.get(2).results().stream().allMatch(r -> r.outcome() == WorkloadResult.Outcome.FAILED));
        assertTrue(Double.isNaN(Figures.writeAmp(runs.get(0).results().get(0).stats().io())));

        List<String> lines = Files.readAllLines(results.resolve("results.csv"));
        assertEquals(1 + 3 * 3, lines.size());
        assertTrue(lines.get(5).startsWith("ycsbe,bellows:LSM_TRIE/NONE,,") && lines.get(5).endsWith(",not supported"),
                lines.get(5));
        assertTrue(lines.get(3).startsWith("fillrandom,rocksdb,,") && lines.get(3).endsWith(",failed"), lines.get(3));
        assertTrue(lines.get(1).contains(",ran") && lines.get(1).contains(",,,,"), "no write-amp: " + lines.get(1));
        assertPng(results.resolve("ops-per-sec.png"));
        assertFalse(Files.exists(results.resolve("write-amp.png")), "nothing reached disk: no empty chart");
        assertTrue(text.contains("(no write-amplification chart: no configuration wrote a table)"), text);
    }

    @Test
    void memoryLayoutsCompareInOneInvocation() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path json = tmp.resolve("layouts.json");
        int code = BellowsBench.execute(new String[] {"--engines=bellows:LEVELED/BASIC,bellows:LEVELED/BASIC/OFF_HEAP",
            "--num=3000", "--benchmarks=fillrandom,overwrite", "--memstore_size=256K", "--json=" + json},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("[bellows:LEVELED/BASIC/OFF_HEAP]   memstore    OFF_HEAP layout, BASIC, 256K, off-heap"
                + " limit 1M (default)"), text);
        assertTrue(text.contains("[bellows:LEVELED/BASIC]   memstore    ON_HEAP layout, BASIC, 256K"), text);
        assertTrue(text.contains("MemStore memory at the end of each workload"), text);

        List<EngineRun> runs = ResultJson.read(json);
        assertEquals(List.of("bellows:LEVELED/BASIC", "bellows:LEVELED/BASIC/OFF_HEAP"),
                runs.stream().map(EngineRun::engine).toList());
        EngineStats onHeap = runs.get(0).results().get(1).stats();
        EngineStats offHeap = runs.get(1).results().get(1).stats();
        assertEquals(0, onHeap.memstore().chunkPoolOffHeapBytes());
        assertEquals(0, onHeap.memstore().offHeapBytes());
        assertTrue(offHeap.memstore().chunkPoolOffHeapBytes() > 0, "the OFF_HEAP child's pool reaches the parent");
        assertTrue(offHeap.memstore().offHeapBytes() > offHeap.memstore().dataBytes(),
                "cells and their headers off-heap");
        assertTrue(offHeap.memstore().heapBytes() < onHeap.memstore().heapBytes(), "less heap for the same data");
    }

    @Test
    void singleRunWritesJsonAndChartsToo() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BenchOptions o = BenchFlags.parse("--num=2000", "--benchmarks=fillseq,overwrite,ycsbc", "--sample_ms=10",
                "--out=" + tmp.resolve("single"), "--json=" + tmp.resolve("r.json"));
        BellowsBench.run(o, new PrintStream(out, true, StandardCharsets.UTF_8), (dir, options) -> new ModelEngine());
        List<EngineRun> runs = ResultJson.read(tmp.resolve("r.json"));
        assertEquals(1, runs.size());
        assertEquals("bellows:LEVELED/NONE", runs.get(0).engine());
        assertEquals(3, runs.get(0).results().size());
        assertPng(tmp.resolve("single/ops-per-sec.png"));
        assertEquals(4, Files.readAllLines(tmp.resolve("single/results.csv")).size());
    }

    private static void assertPng(Path p) throws IOException {
        byte[] b = Files.readAllBytes(p);
        assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', p + " is a PNG");
    }
}
