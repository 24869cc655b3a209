package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay workload: a trace captured from a real engine (two threads on disjoint keys, every kind of
 * call) replayed into another configuration and into RocksDB leaves the same contents (the model check),
 * and compare mode replays one trace on several configurations and names the winners.
 */
class TraceReplayTest {
    private static final EngineOptions SMALL = EngineOptions.builder().memstoreSize(64 << 10).build();

    @TempDir
    Path tmp;

    /** Records random calls of two threads on a LEVELED/NONE store; returns its final contents. */
    private TreeMap<String, String> capture(Path trace, boolean values, long seed) throws Exception {
        try (Engine db = Engine.open(tmp.resolve("source"), SMALL)) {
            db.startTrace(trace, TraceOptions.builder().values(values).build());
            Thread[] threads = new Thread[2];
            for (int t = 0; t < threads.length; t++) {
                int id = t;
                threads[t] = new Thread(() -> randomCalls(db, id, new Random(seed + id)));
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            db.endTrace();
            return contents(db);
        }
    }

    private static void randomCalls(Engine db, int thread, Random r) {
        for (int i = 0; i < 1500; i++) {
            byte[] key = key(thread, r.nextInt(400));
            int op = r.nextInt(10);
            if (op < 4) {
                byte[] value = new byte[1 + r.nextInt(300)];
                r.nextBytes(value);
                db.put(key, value);
            } else if (op == 4) {
                db.delete(key);
            } else if (op == 5) {
                WriteBatch b = new WriteBatch();
                for (int j = 0; j < 3; j++) {
                    byte[] v = new byte[r.nextInt(50)];
                    r.nextBytes(v);
                    b.put(key(thread, r.nextInt(400)), v);
                }
                b.delete(key(thread, r.nextInt(400)));
                db.write(b);
            } else if (op == 6) {
                db.multiGet(List.of(key, key(thread, r.nextInt(400))));
            } else if (op == 7) {
                try (Cursor c = db.cursor(ReadOptions.defaults().from(key(thread, 0)).to(key(thread, 400)))) {
                    c.seek(key);
                    for (int j = 0; j < 5 && c.isValid(); j++) {
                        c.next();
                    }
                    c.seekForPrev(key);
                    if (c.isValid()) {
                        c.prev();
                    }
                }
            } else {
                db.get(key);
            }
        }
    }

    private static byte[] key(int thread, int n) {
        return String.format("t%d-%05d", thread, n).getBytes(StandardCharsets.UTF_8);
    }

    private static TreeMap<String, String> contents(Engine db) {
        TreeMap<String, String> m = new TreeMap<>();
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                m.put(new String(c.key(), StandardCharsets.UTF_8), HexFormat.of().formatHex(c.value()));
            }
        }
        return m;
    }

    @Test
    void aCapturedTraceReplayedIntoAnotherConfigurationLeavesTheSameContents() throws Exception {
        long seed = TestSeeds.seed("TraceReplayTest");
        Path trace = tmp.resolve("run.trace");
        TreeMap<String, String> expected = capture(trace, true, seed);
        assertTrue(expected.size() > 100, "the run left data: " + expected.size());
        Path replayed = tmp.resolve("replayed");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<WorkloadResult> results = BellowsBench.run(new String[] {"--benchmarks=replay", "--trace=" + trace,
            "--engine=bellows:FLSM/BASIC", "--memstore_size=64K", "--db=" + replayed},
                new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        WorkloadResult r = results.get(0);
        assertTrue(r.ran(), text);
        assertTrue(r.ops() > 2000, "every record is an operation: " + r.ops());
        assertTrue(r.stats().io().flushBytesWritten() > 0, "the replay reached disk");
        assertTrue(text.contains("on 2 threads") && text.contains("0 records skipped"), text);
        EngineOptions flsm = SMALL.toBuilder().compaction(CompactionStyle.FLSM)
                .inMemoryCompaction(InMemoryCompaction.BASIC).build();
        try (Engine db = Engine.open(replayed, flsm)) {
            assertEquals(expected, contents(db));
        }

        Path rocks = tmp.resolve("rocksdb");
        assertTrue(BellowsBench.run(new String[] {"--benchmarks=replay", "--trace=" + trace, "--engine=rocksdb",
            "--memstore_size=64K", "--db=" + rocks}, new PrintStream(out, true, StandardCharsets.UTF_8)).get(0).ran());
        TreeMap<String, String> inRocks = new TreeMap<>();
        try (BenchEngine db = RocksDbEngine.open(rocks, SMALL, Durability.ASYNC); BenchEngine.Scan c = db.scan()) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                inRocks.put(new String(c.key(), StandardCharsets.UTF_8), HexFormat.of().formatHex(c.value()));
            }
        }
        assertEquals(expected, inRocks, "the same trace replayed into RocksDB");
    }

    @Test
    void threadsThatDidNotOverlapKeepTheirOrderInAFastReplay() throws Exception {
        Path trace = tmp.resolve("phases.trace");
        try (Engine db = Engine.open(tmp.resolve("phases"), SMALL)) {
            db.startTrace(trace, TraceOptions.defaults());
            Thread load = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    db.put(key(0, i), new byte[20]);
                }
            });
            load.start();
            load.join();
            Thread run = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    db.get(key(0, i));
                }
            });
            run.start();
            run.join();
            db.endTrace();
        }
        WorkloadResult r = BellowsBench.run(new String[] {"--benchmarks=replay", "--trace=" + trace},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).get(0);
        assertEquals(1000, r.ops());
        assertEquals(500, r.found(), "the reading thread started after the loading one finished");
        assertEquals(0, r.notFound());
    }

    @Test
    void atRecordedSpeedThePausesAreKept() throws Exception {
        Path trace = tmp.resolve("paused.trace");
        try (Engine db = Engine.open(tmp.resolve("paused"), SMALL)) {
            db.startTrace(trace, TraceOptions.defaults());
            db.put(key(0, 1), new byte[10]);
            Thread.sleep(1000);
            db.put(key(0, 2), new byte[10]);
            db.endTrace();
        }
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        WorkloadResult recorded = BellowsBench.run(new String[] {"--benchmarks=replay", "--trace=" + trace,
            "--replay_speed=1.0"}, quiet).get(0);
        assertTrue(recorded.seconds() >= 0.99, "the second put waits for its recorded time: " + recorded.seconds());
        WorkloadResult fast = BellowsBench.run(new String[] {"--benchmarks=replay", "--trace=" + trace}, quiet).get(0);
        assertTrue(fast.seconds() < 0.9, "as fast as possible: " + fast.seconds());
        assertEquals(2, fast.ops());
    }

    @Test
    void compareModeReplaysOneTraceOnEveryConfigurationAndNamesTheWinners() throws Exception {
        Path trace = tmp.resolve("small.trace");
        capture(trace, false, TestSeeds.seed("TraceReplayTest compare"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BellowsBench.execute(new String[] {"--engines=bellows:LEVELED/NONE,bellows:LSM_TRIE/NONE,rocksdb",
            "--benchmarks=replay", "--trace=" + trace, "--memstore_size=64K", "--replay_speed=0"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("[rocksdb] replay") && text.contains("[bellows:LEVELED/NONE] replay"), text);
        assertTrue(text.contains("replay on bellows:LSM_TRIE/NONE: not supported, the trace opens cursors"), text);
        int best = text.indexOf("Best per workload");
        assertTrue(best > 0, text);
        String verdict = text.substring(best);
        assertTrue(verdict.matches("(?s).*replay\\s+ops/s\\s+\\d+  (bellows:LEVELED/NONE|rocksdb)\n.*"), verdict);
        assertTrue(verdict.matches("(?s).*p99 us\\s+[\\d.]+  (bellows:LEVELED/NONE|rocksdb)\n.*"), verdict);
    }

    @Test
    void replayFlagsMustFitTogether() throws Exception {
        Path trace = tmp.resolve("x.trace");
        Files.writeString(trace, "");
        assertFlagError("--benchmarks=replay needs --trace=FILE", "--benchmarks=replay");
        assertFlagError("--trace names 1 trace(s) but --benchmarks has 0", "--benchmarks=fillrandom", "--trace=" + trace);
        assertFlagError("--trace names 1 trace(s) but --benchmarks has 2", "--benchmarks=replay,replay", "--trace=" + trace);
        assertFlagError("is not a readable file", "--benchmarks=replay", "--trace=" + tmp.resolve("missing"));
        assertFlagError("--replay_speed must be between", "--benchmarks=replay", "--trace=" + trace, "--replay_speed=-1");
        assertFlagError("--record_trace records a Bellows engine", "--engine=rocksdb", "--record_trace=" + trace);
        assertEquals(List.of(trace, trace), BenchFlags.parse("--benchmarks=replay,fillrandom,replay",
                "--trace=" + trace + "," + trace, "--replay_speed=1.5").traces());
    }

    private static void assertFlagError(String message, String... args) {
        FlagException e = assertThrows(FlagException.class, () -> BenchFlags.parse(args));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
