package io.bellows.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples a running workload's throughput, for the throughput-over-time chart, and draws the progress
 * bar once the workload has run longer than {@link #BAR_DELAY_NANOS}. The interval starts at the
 * finest one asked for and doubles, merging neighbouring samples, whenever {@link #MAX_SAMPLES} are
 * held: however long the workload runs, its chart gets between {@code MAX_SAMPLES / 2} and
 * {@code MAX_SAMPLES} points once it has run {@code MAX_SAMPLES / 2} finest intervals, rather than the
 * handful a fixed interval gives a short workload or the thousands it gives a long one.
 */
final class Sampler implements AutoCloseable {
    /** Shorter workloads draw no bar: it would only flicker. */
    static final long BAR_DELAY_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long BAR_REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Even, so that merging pairs leaves every sample one whole doubled interval. */
    static final int MAX_SAMPLES = 200;

    private final String label;
    private final long total;
    private final LongSupplier done;
    private long intervalNanos;
    private final ProgressBar bar;
    private final Thread thread;
    private final double[] samples = new double[MAX_SAMPLES];
    private int count;
    private volatile boolean stopped;

    /**
     * Starts sampling {@code done} (operations so far of {@code total}) every {@code intervalMillis}
     * at first.
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

    /** Adds the rate of the interval that just ended; doubles the interval when the samples are full. */
    synchronized void add(double opsPerSecond) {
        samples[count++] = opsPerSecond;
        if (count == MAX_SAMPLES) {
            for (int i = 0; i < MAX_SAMPLES / 2; i++) {
                samples[i] = (samples[2 * i] + samples[2 * i + 1]) / 2;
            }
            count = MAX_SAMPLES / 2;
            intervalNanos *= 2;
        }
    }

    /** Stops sampling, erases the bar, and returns ops/s of each complete interval of {@link #intervalMillis()}. */
    double[] finish() {
        close();
        synchronized (this) {
            return Arrays.copyOf(samples, count);
        }
    }

    /** The interval of the samples {@link #finish()} returns. */
    synchronized int intervalMillis() {
        return (int) TimeUnit.NANOSECONDS.toMillis(intervalNanos);
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
