package io.bellows.bench;

import io.bellows.engine.Engine;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one workload on {@code --threads} client threads released together, then merges what they
 * measured. Each thread does an equal share of the workload's operations.
 */
final class WorkloadRunner {
    private final Engine db;
    private final BenchOptions options;
    private final KeyCodec keys;
    private final byte[] valuePool;

    WorkloadRunner(Engine db, BenchOptions options, KeyCodec keys, byte[] valuePool) {
        this.db = db;
        this.options = options;
        this.keys = keys;
        this.valuePool = valuePool;
    }

    /**
     * Runs {@code workload}, drawing every random choice from {@code random}, and returns its result
     * with the engine's stats afterwards. A client's exception fails the workload.
     */
    WorkloadResult run(Workload workload, SplittableRandom random) {
        int threads = options.threads();
        long ops = workload.ops(options);
        long num = options.num();
        RandomPermutation permutation =
                workload == Workload.FILLRANDOM ? new RandomPermutation(num, random.nextLong()) : null;
        Client[] clients = new Client[threads];
        for (int t = 0; t < threads; t++) {
            long lo = share(ops, t, threads);
            long hi = share(ops, t + 1, threads);
            long readSeqStart = t == 0 ? -1 : share(num, t, threads);
            clients[t] = new Client(db, workload, options, keys,
                    new ValueGenerator(valuePool, options.valueSizeMin(), options.valueSize(), random.split()),
                    options.distribution().chooser(num, random.split()), permutation, readSeqStart, lo, hi);
        }
        runTogether(workload, clients);
        return merge(workload, clients);
    }

    /**
     * The first operation of thread {@code t}'s share of {@code total}; no overflow because flags cap
     * counts at {@link BenchFlags#MAX_NUM} (2^40) and threads at 1024.
     */
    static long share(long total, int t, int threads) {
        return total * t / threads;
    }

    private static void runTogether(Workload workload, Client[] clients) {
        CountDownLatch ready = new CountDownLatch(clients.length);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[clients.length];
        for (int t = 0; t < clients.length; t++) {
            Client client = clients[t];
            threads[t] = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                    client.run();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-" + workload.flagName() + "-" + t);
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

    private WorkloadResult merge(Workload workload, Client[] clients) {
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
        return new WorkloadResult(workload, ops, end - start, bytes, found, notFound, latency, db.stats());
    }
}
