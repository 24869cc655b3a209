package io.bellows.bench;

import io.bellows.engine.TestSeeds;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** YCSB mixes, readwhilewriting and readrandomwriterandom, against {@link ModelEngine}. */
class YcsbWorkloadTest {
    private static final int NUM = 2000;

    private final ModelEngine model = new ModelEngine();
    private final BenchEngine db = new BellowsEngine(model, io.bellows.engine.Durability.ASYNC);
    private final SplittableRandom random = new SplittableRandom(seed());
    private final AtomicLong records = new AtomicLong(NUM);

    @Test
    void mixesPickOperationsInTheirProportions() {
        int[] counts = new int[YcsbMix.YcsbOp.values().length];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 100_000; i++) {
            counts[YcsbMix.E.pick(r.nextDouble()).ordinal()]++;
        }
        assertEquals(95_000, counts[YcsbMix.YcsbOp.SCAN.ordinal()], 1000);
        assertEquals(5_000, counts[YcsbMix.YcsbOp.INSERT.ordinal()], 500);
        assertEquals(YcsbMix.YcsbOp.READ_MODIFY_WRITE, YcsbMix.F.pick(0.99));
        assertEquals(YcsbMix.YcsbOp.READ, YcsbMix.C.pick(0.99));
        assertEquals(YcsbMix.YcsbOp.UPDATE, YcsbMix.A.pick(0.5));
    }

    @Test
    void workloadAReadsAndUpdatesLoadedKeys() {
        run(Workload.FILLRANDOM);
        long putsBefore = model.puts.get();
        WorkloadResult r = run(Workload.YCSB_A, "--threads=2");
        assertEquals(NUM / 5, r.ops());
        long updates = model.puts.get() - putsBefore;
        assertEquals(r.ops(), r.found() + updates, "every operation is a found read or an update");
        assertEquals(0, r.notFound());
        assertTrue(updates > NUM / 5 / 4 && updates < NUM / 5 * 3 / 4, "about half updates: " + updates);
        assertEquals(NUM, model.map.size(), "updates touch existing keys only");
    }

    @Test
    void workloadDInsertsNewKeysAndReadsRecentOnes() {
        run(Workload.FILLRANDOM);
        WorkloadResult r = run(Workload.YCSB_D, "--operations=4000");
        long inserted = records.get() - NUM;
        assertTrue(inserted > 100 && inserted < 300, "about 5% inserts: " + inserted);
        assertEquals(NUM + inserted, model.map.size());
        assertEquals(4000 - inserted, r.found(), "latest reads find keys, including inserted ones");
    }

    @Test
    void workloadEScansShortRanges() {
        run(Workload.FILLRANDOM);
        long cursorsBefore = model.cursors.get();
        WorkloadResult r = run(Workload.YCSB_E, "--scan_length=10");
        long scans = model.cursors.get() - cursorsBefore - 1; // NB: the first cursor is the probe for cursor support
        assertEquals(r.ops(), scans + (records.get() - NUM), "each operation a scan or an insert");
        assertTrue(r.bytes() > scans * 116 && r.bytes() <= scans * 10 * 116 + (records.get() - NUM) * 116,
                "scans read 1..10 entries: " + r.bytes());
    }

    @Test
    void workloadFReadsThenWrites() {
        run(Workload.FILLRANDOM);
        long putsBefore = model.puts.get();
        long getsBefore = model.gets.get();
        WorkloadResult r = run(Workload.YCSB_F);
        long rmw = model.puts.get() - putsBefore;
        assertEquals(r.ops(), model.gets.get() - getsBefore, "every operation gets; read-modify-writes also put");
        assertTrue(rmw > r.ops() / 4 && rmw < r.ops() * 3 / 4, "about half read-modify-writes: " + rmw);
        assertEquals(r.ops(), r.found());
    }

    @Test
    void readWhileWritingCountsReadersOnlyWhileAWriterRuns() {
        run(Workload.FILLRANDOM);
        long putsBefore = model.puts.get();
        WorkloadResult r = run(Workload.READWHILEWRITING, "--threads=2");
        assertEquals(NUM / 5, r.ops());
        assertEquals(NUM / 5, r.found());
        assertTrue(model.puts.get() > putsBefore, "the writer wrote while readers read");
    }

    @Test
    void readRandomWriteRandomMixesGetsAndPutsByReadWritePercent() {
        run(Workload.FILLRANDOM);
        long putsBefore = model.puts.get();
        long getsBefore = model.gets.get();
        WorkloadResult r = run(Workload.READRANDOMWRITERANDOM, "--operations=4000", "--readwritepercent=10");
        long puts = model.puts.get() - putsBefore;
        long gets = model.gets.get() - getsBefore;
        assertEquals(4000, r.ops());
        assertEquals(r.ops(), puts + gets, "every operation a get or a put");
        assertTrue(gets > 300 && gets < 500, "about 10% gets: " + gets);
        assertEquals(gets, r.found(), "keys drawn from the loaded range");
        WorkloadResult allPuts = run(Workload.READRANDOMWRITERANDOM, "--operations=1000", "--readwritepercent=0");
        assertEquals(0, allPuts.found() + allPuts.notFound());
    }

    private WorkloadResult run(Workload w, String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "--num=" + NUM;
        System.arraycopy(flags, 0, args, 1, flags.length);
        BenchOptions o = BenchFlags.parse(args);
        return new WorkloadRunner(db, o, new KeyCodec(o.keySize()), ValueGenerator.pool(o.seed(), o.valueSize()),
                records, null).run(w, random.split());
    }

    private static long seed() {
        // engine-core's TestSeeds, which this module's tests cannot see: same property, same message.
        long seed = TestSeeds.seed("YcsbWorkloadTest");
        return seed;
    }
}
