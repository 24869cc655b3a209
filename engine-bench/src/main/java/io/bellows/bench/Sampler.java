package io.bellows.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples a running workload's throughput every interval, for the throughput-over-time chart, and
 * draws the progress bar once the workload has run longer than {@link #BAR_DELAY_NANOS}.
 */
final class Sampler implements AutoCloseable {
    /** Shorter workloads draw no bar: it would only flicker. */
    static final long BAR_DELAY_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long BAR_REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final String label;
    private final long total;
    private final LongSupplier done;
    private final long intervalNanos;
    private final ProgressBar bar;
    private final Thread thread;
    private double[] samples = new double[64];
    private int count;
    private volatile boolean stopped;

    /**
     * Starts sampling {@code done} (operations so far of {@code total}).
     *
     * @param bar where to draw the progress bar, or null for none
     */
    Sampler(String label, long total, LongSupplier done, int intervalMillis, ProgressBar bar) {
        this.label = label;
        this.total = total;
        this.done = done;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.bar = bar;
        this.thread = new Thread(this::loop, "bench-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long start = System.nanoTime();
        long nextSample = start + intervalNanos;
        long lastOps = 0;
        long lastBarNanos = start;
        long lastBarOps = 0;
        while (!stopped) {
            long now = System.nanoTime();
            long wake = Math.min(nextSample, now + BAR_REDRAW_NANOS);
            try {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, wake - now));
            } catch (InterruptedException e) {
                return;
            }
            now = System.nanoTime();
            long ops = done.getAsLong();
            if (now >= nextSample && !stopped) {
                add((ops - lastOps) * 1e9 / intervalNanos);
                lastOps = ops;
                nextSample += intervalNanos;
            }
            if (bar != null && now - start >= BAR_DELAY_NANOS && !stopped) {
                double rate = now == lastBarNanos ? 0 : (ops - lastBarOps) * 1e9 / (now - lastBarNanos);
                bar.draw(label, ops, total, rate);
                lastBarNanos = now;
                lastBarOps = ops;
            }
        }
    }

    private synchronized void add(double opsPerSecond) {
        if (count == samples.length) {
            samples = Arrays.copyOf(samples, count * 2);
        }
        samples[count++] = opsPerSecond;
    }

    /** Stops sampling, erases the bar, and returns ops/s of each complete interval. */
    double[] finish() {
        close();
        synchronized (this) {
            return Arrays.copyOf(samples, count);
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (bar != null) {
            bar.clear();
        }
    }
}
