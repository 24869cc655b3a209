package io.bellows.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What one client thread measured in one workload. Written by that thread only, read after join;
 * {@link #progress()} alone may be read while the thread runs (by the sampler).
 */
final class ThreadStats {
    /** Latencies above this are recorded as this: no engine call should take an hour. */
    static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);
    static final int SIGNIFICANT_DIGITS = 3;

    final Histogram latency = newHistogram();
    long ops;
    long bytes;
    long found;
    long notFound;
    long startNanos;
    long endNanos;
    /** ops, published for the sampler; lazySet is a plain store on x86, so it costs the hot loop nothing. */
    private final AtomicLong published = new AtomicLong();

    static Histogram newHistogram() {
        return new Histogram(HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    void recordLatency(long nanos) {
        latency.recordValue(Math.max(0, Math.min(nanos, HIGHEST_TRACKABLE_NANOS)));
    }

    /** Counts one operation. */
    void countOp() {
        ops++;
        published.lazySet(ops);
    }

    /** Operations so far, readable from any thread. */
    long progress() {
        return published.get();
    }
}
