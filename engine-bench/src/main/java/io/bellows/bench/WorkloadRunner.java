package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.io.PrintStream;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one workload on {@code --threads} client threads released together, then merges what they
 * measured. Each thread does an equal share of the workload's operations; readwhilewriting adds one
 * writer thread that overwrites until the readers are done and is not counted in the result.
 */
final class WorkloadRunner {
    private final BenchEngine db;
    private final BenchOptions options;
    private final KeyCodec keys;
    private final byte[] valuePool;
    private final AtomicLong records;
    private final PrintStream progressTo;

    WorkloadRunner(BenchEngine db, BenchOptions options, KeyCodec keys, byte[] valuePool) {
        this(db, options, keys, valuePool, new AtomicLong(options.num()), null);
    }

    /**
     * @param records keys the store holds, [0, records): YCSB inserts extend it, YCSB D reads follow it
     * @param progressTo where to draw the progress bar, or null for none
     */
    WorkloadRunner(BenchEngine db, BenchOptions options, KeyCodec keys, byte[] valuePool, AtomicLong records,
            PrintStream progressTo) {
        this.db = db;
        this.options = options;
        this.keys = keys;
        this.valuePool = valuePool;
        this.records = records;
        this.progressTo = progressTo;
    }

    /**
     * Runs {@code workload}, drawing every random choice from {@code random}, and returns its result
     * with the engine's stats afterwards. A client's exception fails the workload.
     */
    WorkloadResult run(Workload workload, SplittableRandom random) {
        String refused = refusal(workload);
        if (refused != null) {
            return WorkloadResult.notRun(workload, WorkloadResult.Outcome.NOT_SUPPORTED, refused);
        }
        int threads = options.threads();
        long ops = workload.ops(options);
        long num = options.num();
        RandomPermutation permutation =
                workload == Workload.FILLRANDOM ? new RandomPermutation(num, random.nextLong()) : null;
        KeyDistribution distribution = options.distribution();
        if (workload.mix() != null) {
            distribution = options.requestDistribution() != null ? options.requestDistribution()
                    : workload.mix().distribution();
        }
        Client[] clients = new Client[threads];
        for (int t = 0; t < threads; t++) {
            long lo = share(ops, t, threads);
            long hi = share(ops, t + 1, threads);
            long readSeqStart = t == 0 ? -1 : share(num, t, threads);
            ValueGenerator values = new ValueGenerator(valuePool, options.valueSizeMin(), options.valueSize(),
                    random.split());
            KeyChooser chooser = distribution.chooser(num, random.split(), records::get, options.hotspot());
            clients[t] = new Client(db, workload, options, keys, values, chooser, permutation, random.split(), records,
                    null, readSeqStart, lo, hi);
        }
        Client writer = null;
        CountDownLatch readersDone = new CountDownLatch(threads);
        if (workload == Workload.READWHILEWRITING) {
            writer = new Client(db, Workload.OVERWRITE, options, keys,
                    new ValueGenerator(valuePool, options.valueSize(), random.split()),
                    KeyDistribution.UNIFORM.chooser(num, random.split()), null, random.split(), records,
                    () -> readersDone.getCount() == 0, -1, 0, 0);
        }
        EngineStats statsBefore = db.stats();
        ProcessMetrics before = ProcessMetrics.now();
        ProgressBar bar = progressTo == null ? null : new ProgressBar(progressTo);
        Sampler sampler = new Sampler(workload.flagName(), ops, () -> progress(clients), options.sampleMillis(), bar);
        double[] throughput;
        try {
            runTogether(workload, clients, writer, readersDone);
        } finally {
            throughput = sampler.finish();
        }
        ProcessMetrics used = ProcessMetrics.now().minus(before);
        return merge(workload, clients, statsBefore, used, sampler.intervalMillis(), throughput);
    }

    /**
     * Why the engine cannot run {@code workload}, or null if it can: a workload that needs a cursor
     * asks for one before it starts, so a store without key order is reported, not half-run.
     */
    private String refusal(Workload workload) {
        if (!workload.scans()) {
            return null;
        }
        try (BenchEngine.Scan probe = db.scan()) {
            return null;
        } catch (UnsupportedOperationException e) {
            return e.getMessage() == null ? "the engine refuses cursors" : e.getMessage();
        }
    }

    private static long progress(Client[] clients) {
        long sum = 0;
        for (Client c : clients) {
            sum += c.stats().progress();
        }
        return sum;
    }

    /**
     * The first operation of thread {@code t}'s share of {@code total}; no overflow because flags cap
     * counts at {@link BenchFlags#MAX_NUM} (2^40) and threads at 1024.
     */
    static long share(long total, int t, int threads) {
        return total * t / threads;
    }

    private static void runTogether(Workload workload, Client[] clients, Client writer, CountDownLatch readersDone) {
        int n = clients.length + (writer == null ? 0 : 1);
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        for (int t = 0; t < n; t++) {
            Client client = t < clients.length ? clients[t] : writer;
            boolean reader = t < clients.length;
            threads[t] = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                    client.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    // NB: a failed reader must still release the writer, or the workload never ends.
                    while (readersDone.getCount() > 0) {
                        readersDone.countDown();
                    }
                } finally {
                    if (reader) {
                        readersDone.countDown();
                    }
                }
            }, "bench-" + workload.flagName() + "-" + (reader ? Integer.toString(t) : "writer"));
            threads[t].start();
        }
        try {
            ready.await();
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + workload.flagName(), e);
        }
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException(workload.flagName() + " failed: " + e, e);
        }
    }

    private WorkloadResult merge(Workload workload, Client[] clients, EngineStats statsBefore, ProcessMetrics used,
            int sampleMillis, double[] throughput) {
        Histogram latency = ThreadStats.newHistogram();
        long ops = 0;
        long bytes = 0;
        long found = 0;
        long notFound = 0;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (Client c : clients) {
            ThreadStats s = c.stats();
            latency.add(s.latency);
            ops += s.ops;
            bytes += s.bytes;
            found += s.found;
            notFound += s.notFound;
            start = Math.min(start, s.startNanos);
            end = Math.max(end, s.endNanos);
        }
        return new WorkloadResult(workload, ops, end - start, bytes, found, notFound, latency, db.stats(),
                statsBefore, used.gcMillis(), used.cpuNanos(), sampleMillis, throughput);
    }
}
