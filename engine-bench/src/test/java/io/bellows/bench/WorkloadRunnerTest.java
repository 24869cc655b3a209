package io.bellows.bench;

import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workloads' semantics, run against {@link ModelEngine}. */
class WorkloadRunnerTest {
    private static final int NUM = 1000;

    private final ModelEngine db = new ModelEngine();
    private final SplittableRandom random = new SplittableRandom(seed());

    @Test
    void fillseqWritesEveryKeyInOrderOnePutEach() {
        WorkloadResult r = run(Workload.FILLSEQ, "--threads=3");
        assertFilled(r);
        assertEquals(NUM, db.puts.get());
        assertEquals(NUM, r.latency().getTotalCount());
        assertEquals(0, new KeyCodec(16).decode(db.map.firstKey()));
        assertEquals(NUM - 1, new KeyCodec(16).decode(db.map.lastKey()));
    }

    @Test
    void fillrandomWritesEveryKeyOnceEvenWithThreads() {
        WorkloadResult r = run(Workload.FILLRANDOM, "--threads=4");
        assertFilled(r);
        assertEquals(NUM, db.puts.get(), "a permutation: no key written twice");
    }

    @Test
    void batchedWritesCommitFullBatchesAndTheRest() {
        WorkloadResult r = run(Workload.FILLSEQ, "--batch_size=7");
        assertFilled(r);
        assertEquals(0, db.puts.get());
        assertEquals((NUM + 6) / 7, db.batches.get());
        assertEquals((NUM + 6) / 7, r.latency().getTotalCount(), "one latency per WriteBatch");
    }

    @Test
    void overwriteKeepsKeysWithinNum() {
        WorkloadResult r = run(Workload.OVERWRITE, "--distribution=zipfian", "--threads=2");
        assertEquals(NUM, r.ops());
        assertTrue(db.map.size() < NUM, "zipfian overwrites repeat keys");
        for (byte[] key : db.map.keySet()) {
            assertTrue(new KeyCodec(16).decode(key) < NUM);
        }
    }

    @Test
    void readrandomFindsEveryKeyAfterAFill() {
        run(Workload.FILLRANDOM);
        WorkloadResult r = run(Workload.READRANDOM, "--threads=2");
        assertEquals(NUM / 5, r.ops());
        assertEquals(NUM / 5, r.found());
        assertEquals(0, r.notFound());
        assertEquals(NUM / 5 * 116L, r.bytes());
        assertSame(Workload.READRANDOM, r.workload());
        assertEquals(NUM / 5, r.stats().reads().gets());
    }

    @Test
    void readseqReadsItsShareFromEachThreadsStart() {
        run(Workload.FILLSEQ);
        WorkloadResult r = run(Workload.READSEQ, "--threads=2", "--reads=" + NUM);
        assertEquals(NUM, r.ops(), "two threads each read half, from key 0 and key num/2");
        assertEquals(NUM * 116L, r.bytes());
        assertEquals(1 + 2, db.cursors.get(), "the probe that the store has cursors, then one per thread");
        WorkloadResult tooMany = run(Workload.READSEQ, "--reads=" + 3 * NUM);
        assertEquals(NUM, tooMany.ops(), "readseq stops at the end of the store");
    }

    @Test
    void seekrandomLandsOnTheKeyAndReadsSeekNexts() {
        run(Workload.FILLSEQ);
        WorkloadResult r = run(Workload.SEEKRANDOM, "--seek_nexts=3");
        assertEquals(NUM / 5, r.found());
        assertEquals(1 + NUM / 5, db.cursors.get(), "the probe, then a cursor per seek as in db_bench");
        assertTrue(r.bytes() <= NUM / 5 * 3 * 116L && r.bytes() > NUM / 5 * 2 * 116L, "bytes " + r.bytes());
    }

    @Test
    void deleterandomRemovesKeysThatReadsThenMiss() {
        run(Workload.FILLSEQ);
        WorkloadResult d = run(Workload.DELETERANDOM, "--deletes=500", "--batch_size=10");
        assertEquals(500, d.ops());
        assertEquals(500 * 16L, d.bytes());
        int left = db.map.size();
        assertTrue(left < NUM && left > NUM - 500, "left " + left);
        WorkloadResult r = run(Workload.READRANDOM, "--reads=" + NUM);
        assertTrue(r.notFound() > 0 && r.found() > 0);
        assertEquals(NUM, r.found() + r.notFound());
    }

    @Test
    void sameRandomStreamSameStore() {
        BenchOptions o = BenchFlags.parse("--num=100", "--seed=9");
        ModelEngine a = overwrite(o, 12345);
        ModelEngine b = overwrite(o, 12345);
        ModelEngine c = overwrite(o, 54321);
        assertEquals(storeText(a), storeText(b));
        assertNotEquals(storeText(a), storeText(c));
    }

    private static ModelEngine overwrite(BenchOptions o, long streamSeed) {
        ModelEngine m = new ModelEngine();
        new WorkloadRunner(new BellowsEngine(m, o.durability()), o, new KeyCodec(o.keySize()), ValueGenerator.pool(o.seed(), o.valueSize()))
                .run(Workload.OVERWRITE, new SplittableRandom(streamSeed));
        return m;
    }

    private static String storeText(ModelEngine m) {
        StringBuilder sb = new StringBuilder();
        m.map.forEach((k, v) -> sb.append(Arrays.toString(k)).append('=').append(Arrays.toString(v)).append('\n'));
        return sb.toString();
    }

    @Test
    void aClientFailureFailsTheWorkload() {
        ModelEngine broken = new ModelEngine() {
            @Override
            public void put(byte[] key, byte[] value, WriteOptions options) {
                throw new IllegalStateException("disk on fire");
            }
        };
        BenchOptions o = BenchFlags.parse("--num=10", "--threads=2");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new WorkloadRunner(new BellowsEngine(broken, o.durability()), o, new KeyCodec(16), ValueGenerator.pool(1, 100))
                        .run(Workload.FILLSEQ, random));
        assertTrue(e.getMessage().contains("fillseq failed") && e.getMessage().contains("disk on fire"),
                e.getMessage());
    }

    @Test
    void sharesSplitTheWorkExactly() {
        long total = 0;
        for (int t = 0; t < 7; t++) {
            total += WorkloadRunner.share(1000, t + 1, 7) - WorkloadRunner.share(1000, t, 7);
        }
        assertEquals(1000, total);
        assertEquals(0, WorkloadRunner.share(1000, 0, 7));
    }

    private WorkloadResult run(Workload w, String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "--num=" + NUM;
        System.arraycopy(flags, 0, args, 1, flags.length);
        BenchOptions o = BenchFlags.parse(args);
        return new WorkloadRunner(new BellowsEngine(db, o.durability()), o, new KeyCodec(o.keySize()), ValueGenerator.pool(o.seed(), o.valueSize()))
                .run(w, random.split());
    }

    private void assertFilled(WorkloadResult r) {
        assertEquals(NUM, r.ops());
        assertEquals(NUM, db.map.size());
        assertEquals(NUM * 116L, r.bytes());
        assertTrue(r.nanos() > 0);
        long expected = 0;
        KeyCodec codec = new KeyCodec(16);
        for (byte[] key : db.map.keySet()) {
            assertEquals(expected++, codec.decode(key), "keys are exactly 0 .. num-1");
        }
    }

    private static long seed() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("WorkloadRunnerTest");
        return seed;
    }
}
