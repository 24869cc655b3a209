package io.bellows.bench;

import io.bellows.engine.EngineStats;
import io.bellows.engine.internal.trace.TraceFormat;
import io.bellows.engine.internal.trace.TraceReader;
import io.bellows.engine.internal.trace.TraceRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The replay workload: plays a trace recorded by {@code Engine.startTrace} against this run's engine,
 * one thread per recorded thread, each in its recorded order; at {@code --replay_speed} S > 0 each
 * call also waits for its recorded time divided by S, at 0 the calls follow each other at once. A
 * trace of lengths only is replayed with random values of the recorded lengths. Every record is one
 * operation, timed as one call (a run of cursor steps as one call). Threads whose recorded lives did not
 * overlap keep their order at any speed: a thread starts once every thread whose last call came before
 * its first has finished (a load phase's threads before a run phase's).
 *
 * <p>A cursor used on another thread than the one that opened it may not be open yet in a fast
 * replay; such a record is skipped and counted ({@link #describe()}).
 */
final class TraceReplay {
    private final BenchEngine db;
    private final BenchOptions options;
    private final Path trace;
    private final PrintStream progressTo;
    private final Map<Long, BenchEngine.Scan> scans = new ConcurrentHashMap<>();
    private final AtomicLong skipped = new AtomicLong();
    private TraceSummary summary;

    TraceReplay(BenchEngine db, BenchOptions options, Path trace, PrintStream progressTo) {
        this.db = db;
        this.options = options;
        this.trace = trace;
        this.progressTo = progressTo;
    }

    WorkloadResult run() {
        summary = TraceSummary.of(trace);
        if (summary.cursors()) {
            try (BenchEngine.Scan probe = db.scan()) {
                // The store orders its keys; the trace's cursors can be replayed.
            } catch (UnsupportedOperationException e) {
                return WorkloadResult.notRun(Workload.REPLAY, WorkloadResult.Outcome.NOT_SUPPORTED,
                        "the trace opens cursors and " + (e.getMessage() == null ? "the engine refuses cursors"
                                : e.getMessage()));
            }
        }
        byte[] pool = summary.values() ? null : ValueGenerator.pool(options.seed(), summary.maxValueLength());
        SplittableRandom random = new SplittableRandom(options.seed());
        List<Player> players = new ArrayList<>();
        for (int thread : summary.recordsByThread().keySet()) {
            players.add(new Player(thread, pool, random.split()));
        }
        for (Player p : players) {
            for (Player q : players) {
                if (summary.lastByThread().get(q.thread) < summary.firstByThread().get(p.thread)) {
                    p.after.add(q);
                }
            }
        }
        EngineStats statsBefore = db.stats();
        ProcessMetrics before = ProcessMetrics.now();
        ProgressBar bar = progressTo == null ? null : new ProgressBar(progressTo);
        Sampler sampler = new Sampler(Workload.REPLAY.flagName(), summary.records(), () -> progress(players),
                options.sampleMillis(), bar);
        double[] throughput;
        try {
            playTogether(players);
        } finally {
            throughput = sampler.finish();
            for (BenchEngine.Scan s : scans.values()) {
                s.close();
            }
            scans.clear();
        }
        ProcessMetrics used = ProcessMetrics.now().minus(before);
        Histogram latency = ThreadStats.newHistogram();
        long ops = 0;
        long bytes = 0;
        long found = 0;
        long notFound = 0;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (Player p : players) {
            latency.add(p.stats.latency);
            ops += p.stats.ops;
            bytes += p.stats.bytes;
            found += p.stats.found;
            notFound += p.stats.notFound;
            start = Math.min(start, p.stats.startNanos);
            end = Math.max(end, p.stats.endNanos);
        }
        return new WorkloadResult(Workload.REPLAY, ops, players.isEmpty() ? 0 : end - start, bytes, found, notFound,
                latency, db.stats(), statsBefore, used.gcMillis(), used.cpuNanos(), sampler.intervalMillis(),
                throughput);
    }

    /** The trace replayed, and what could not be. */
    String describe() {
        return "    " + summary.describe() + String.format(Locale.ROOT, "; replayed %s; %d records skipped",
                options.replaySpeed() == 0 ? "as fast as possible" : "at " + options.replaySpeed() + "x recorded speed",
                skipped.get()) + (skipped.get() == 0 ? "" : " (cursor used on another thread before it was opened)");
    }

    private static long progress(List<Player> players) {
        long sum = 0;
        for (Player p : players) {
            sum += p.stats.progress();
        }
        return sum;
    }

    private void playTogether(List<Player> players) {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long[] origin = new long[1];
        for (Player p : players) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    for (Player q : p.after) {
                        q.done.await();
                    }
                    p.play(origin[0]);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    p.done.countDown();
                }
            }, "bench-replay-" + p.thread);
            threads.add(t);
            t.start();
        }
        // NB: the origin is written before the latch opens, which publishes it to every player.
        origin[0] = System.nanoTime();
        go.countDown();
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying " + trace, e);
        }
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException("replay failed: " + e, e);
        }
    }

    /** One recorded thread's records, played in order. */
    private final class Player {
        final int thread;
        final ThreadStats stats = new ThreadStats();
        /** The players that must finish before this one starts; their recorded threads ended before its began. */
        final List<Player> after = new ArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);
        private final byte[] pool;
        private final SplittableRandom random;
        private final byte[] readBuffer = new byte[1 << 16];
        private final BenchEngine.Batch batch;

        Player(int thread, byte[] pool, SplittableRandom random) {
            this.thread = thread;
            this.pool = pool;
            this.random = random;
            this.batch = db.newBatch();
        }

        void play(long origin) throws IOException {
            double speed = options.replaySpeed();
            stats.startNanos = System.nanoTime();
            try (TraceReader r = TraceReader.open(trace)) {
                for (TraceReader.Block b = r.next(thread); b != null; b = r.next(thread)) {
                    for (TraceRecord rec : b.records()) {
                        if (speed > 0) {
                            pace(origin + (long) (rec.time() / speed));
                        }
                        long t0 = System.nanoTime();
                        apply(rec);
                        stats.recordLatency(System.nanoTime() - t0);
                        stats.countOp();
                    }
                }
            }
            stats.endNanos = System.nanoTime();
        }

        /** Waits until {@code target}: parked while far, spinning the last stretch. */
        private void pace(long target) {
            long wait;
            while ((wait = target - System.nanoTime()) > 0) {
                if (wait > 100_000) {
                    LockSupport.parkNanos(wait - 50_000);
                } else {
                    Thread.onSpinWait();
                }
            }
        }

        private byte[] value(int length, byte[] recorded) {
            if (recorded != null) {
                return recorded;
            }
            int off = random.nextInt(pool.length - length + 1);
            return Arrays.copyOfRange(pool, off, off + length);
        }

        private void apply(TraceRecord rec) {
            if (rec instanceof TraceRecord.Get g) {
                count(db.get(g.key(), readBuffer), g.key());
            } else if (rec instanceof TraceRecord.Put p) {
                db.put(p.key(), value(p.valueLength(), p.value()));
                stats.bytes += p.key().length + p.valueLength();
            } else if (rec instanceof TraceRecord.Delete d) {
                db.delete(d.key());
                stats.bytes += d.key().length;
            } else if (rec instanceof TraceRecord.Write w) {
                for (TraceRecord.BatchOp op : w.ops()) {
                    if (op.put()) {
                        batch.put(op.key(), value(op.valueLength(), op.value()));
                    } else {
                        batch.delete(op.key());
                    }
                    stats.bytes += op.key().length + op.valueLength();
                }
                batch.commit();
            } else if (rec instanceof TraceRecord.MultiGet m) {
                List<byte[]> values = db.multiGet(m.keys());
                for (int i = 0; i < values.size(); i++) {
                    count(values.get(i) == null ? -1 : values.get(i).length, m.keys().get(i));
                }
            } else if (rec instanceof TraceRecord.CursorOpen o) {
                scans.put(o.cursor(), db.scan(o.lower(), o.upper()));
            } else if (rec instanceof TraceRecord.CursorMove m) {
                move(m);
            } else if (rec instanceof TraceRecord.CursorStep s) {
                BenchEngine.Scan scan = scans.get(s.cursor());
                if (scan == null) {
                    skipped.incrementAndGet();
                    return;
                }
                for (long i = 0; i < s.steps() && scan.isValid(); i++) {
                    if (s.forward()) {
                        scan.next();
                    } else {
                        scan.prev();
                    }
                }
            }
        }

        private void move(TraceRecord.CursorMove m) {
            BenchEngine.Scan scan = m.kind() == TraceFormat.CURSOR_CLOSE ? scans.remove(m.cursor()) : scans.get(m.cursor());
            if (scan == null) {
                skipped.incrementAndGet();
                return;
            }
            switch (m.kind()) {
                case TraceFormat.SEEK -> scan.seek(m.key());
                case TraceFormat.SEEK_FOR_PREV -> scan.seekForPrev(m.key());
                case TraceFormat.SEEK_TO_FIRST -> scan.seekToFirst();
                case TraceFormat.SEEK_TO_LAST -> scan.seekToLast();
                default -> scan.close();
            }
        }

        private void count(int length, byte[] key) {
            if (length >= 0) {
                stats.found++;
                stats.bytes += key.length + length;
            } else {
                stats.notFound++;
            }
        }
    }
}
