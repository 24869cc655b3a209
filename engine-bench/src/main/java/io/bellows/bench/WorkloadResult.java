package io.bellows.bench;

import io.bellows.engine.EngineStats;
import org.HdrHistogram.Histogram;

/**
 * One workload's outcome, all threads merged, with the engine's stats taken right after it.
 *
 * @param ops operations over all threads (entries for writes and readseq, lookups for reads and seeks)
 * @param nanos wall time from the first thread's start to the last thread's end
 * @param bytes key and value bytes written, or read and returned
 * @param latency nanoseconds per engine call (see --help on what a call is)
 * @param gcMillis time this JVM spent in garbage collection during the workload
 * @param cpuNanos CPU time this JVM used during the workload, all threads (engine background ones too)
 * @param sampleMillis the interval of {@code throughput}
 * @param throughput ops/s in each complete interval of sampleMillis, in order
 */
record WorkloadResult(
        Workload workload,
        long ops,
        long nanos,
        long bytes,
        long found,
        long notFound,
        Histogram latency,
        EngineStats stats,
        long gcMillis,
        long cpuNanos,
        int sampleMillis,
        double[] throughput) {

    double seconds() {
        return nanos / 1e9;
    }

    double opsPerSecond() {
        return nanos == 0 ? 0 : ops / seconds();
    }

    /** Throughput in MiB per second, db_bench's "MB/s". */
    double mbPerSecond() {
        return nanos == 0 ? 0 : bytes / (1024.0 * 1024.0) / seconds();
    }

    /** Latency at {@code percentile} (0..100) in microseconds; 0 when nothing was recorded. */
    double latencyMicros(double percentile) {
        return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxLatencyMicros() {
        return latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1000.0;
    }
}
