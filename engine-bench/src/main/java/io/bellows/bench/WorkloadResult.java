package io.bellows.bench;

import io.bellows.engine.EngineStats;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One workload's outcome, all threads merged, with the engine's stats taken right before and right
 * after it; or, for a workload that did not run ({@link Outcome#NOT_SUPPORTED}, {@link Outcome#FAILED}),
 * only why: such a result has no figures, and every report marks its cell instead of printing zeros.
 *
 * @param ops operations over all threads (entries for writes and readseq, lookups for reads and seeks)
 * @param nanos wall time from the first thread's start to the last thread's end
 * @param bytes key and value bytes written, or read and returned
 * @param latency nanoseconds per engine call (see --help on what a call is)
 * @param stats the engine's counters after the workload, cumulative since the store was opened; null
 *     when the workload did not run
 * @param statsBefore the same counters right before it, so reports can show the workload's own share;
 *     null when the workload did not run
 * @param gcMillis time this JVM spent in garbage collection during the workload
 * @param cpuNanos CPU time this JVM used during the workload, all threads (engine background ones too)
 * @param sampleMillis the interval of {@code throughput}
 * @param throughput ops/s in each complete interval of sampleMillis, in order
 * @param outcome whether it ran
 * @param reason why it did not run; null when it ran
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
        EngineStats statsBefore,
        long gcMillis,
        long cpuNanos,
        int sampleMillis,
        double[] throughput,
        Outcome outcome,
        String reason) {

    /** Whether a workload ran, and if not, why not. */
    enum Outcome {
        RAN("ran"),
        /** The engine refused an operation the workload needs (LSM_TRIE has no ordered cursor). */
        NOT_SUPPORTED("not supported"),
        /** The workload, or the JVM running it, failed. */
        FAILED("failed");

        private final String text;

        Outcome(String text) {
            this.text = text;
        }

        /** How reports print it: "not supported", "failed". */
        String text() {
            return text;
        }

        static Outcome byText(String text) {
            for (Outcome o : values()) {
                if (o.text.equals(text)) {
                    return o;
                }
            }
            throw new IllegalArgumentException("unknown workload outcome '" + text + "'");
        }
    }

    WorkloadResult {
        Objects.requireNonNull(outcome, "outcome");
        if ((outcome == Outcome.RAN) != (stats != null && statsBefore != null && reason == null)) {
            throw new IllegalArgumentException("a workload that ran has stats and no reason, one that did not"
                    + " has a reason and no stats: " + outcome);
        }
    }

    /** A workload that ran. */
    WorkloadResult(Workload workload, long ops, long nanos, long bytes, long found, long notFound, Histogram latency,
            EngineStats stats, EngineStats statsBefore, long gcMillis, long cpuNanos, int sampleMillis,
            double[] throughput) {
        this(workload, ops, nanos, bytes, found, notFound, latency, stats, statsBefore, gcMillis, cpuNanos,
                sampleMillis, throughput, Outcome.RAN, null);
    }

    /** A workload that did not run, and why. */
    static WorkloadResult notRun(Workload workload, Outcome outcome, String reason) {
        if (outcome == Outcome.RAN) {
            throw new IllegalArgumentException("notRun needs NOT_SUPPORTED or FAILED");
        }
        return new WorkloadResult(workload, 0, 0, 0, 0, 0, ThreadStats.newHistogram(), null, null, 0, 0, 0,
                new double[0], outcome, Objects.requireNonNull(reason, "reason"));
    }

    boolean ran() {
        return outcome == Outcome.RAN;
    }

    /** The engine's counters during this workload alone; the state (levels, MemStore) after it. */
    EngineStats own() {
        return StatsDelta.between(statsBefore, stats);
    }

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
