package io.bellows.bench;

import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * A validated bellows-bench command line (see {@link BenchFlags}).
 *
 * @param db the store directory, or null for a fresh temporary one deleted at the end
 * @param csv where to write results as CSV, or null for none
 * @param settleSeconds after each write workload, wait up to this long for compaction to go idle and
 *     print the engine stats again; 0 does not wait
 * @param operations operations of each YCSB workload
 * @param requestDistribution key choice of the YCSB workloads, or null for each workload's own
 * @param engine the engine this process runs (resolved: a Bellows spec names scheme and policy)
 * @param engines compare mode's configurations, each run in its own JVM; empty outside compare mode
 * @param baseline what compare mode's ratios divide by; null outside compare mode
 * @param json where to write results as JSON, or null for none
 * @param out where to write results, charts and logs, or null for none
 * @param progress whether to draw a progress bar, or null to draw one when in a terminal
 * @param sampleMillis interval of throughput samples
 * @param hotspot the hot set of the hotspot distribution
 * @param traces the traces the replay workloads play, the i-th replay of benchmarks the i-th trace
 * @param replaySpeed the replay's speed as a multiple of the recorded one; 0 for as fast as possible
 * @param readWritePercent the share of readrandomwriterandom's operations that are gets, in percent
 */
record BenchOptions(
        List<Workload> benchmarks,
        long num,
        long reads,
        long deletes,
        int keySize,
        int valueSize,
        int threads,
        KeyDistribution distribution,
        Durability durability,
        EngineOptions engineOptions,
        Path db,
        boolean useExistingDb,
        long seed,
        int batchSize,
        int seekNexts,
        boolean histogram,
        Path csv,
        boolean help,
        long settleSeconds,
        int valueSizeMin,
        long operations,
        KeyDistribution requestDistribution,
        int scanLength,
        EngineSpec engine,
        List<EngineSpec> engines,
        EngineSpec baseline,
        Path json,
        Path out,
        Boolean progress,
        int sampleMillis,
        KeyDistribution.Hotspot hotspot,
        List<Path> traces,
        double replaySpeed,
        int readWritePercent) {

    BenchOptions {
        benchmarks = List.copyOf(benchmarks);
        engines = List.copyOf(engines);
        traces = List.copyOf(traces);
    }

    /** Whether this run compares configurations in child JVMs. */
    boolean compare() {
        return !engines.isEmpty();
    }

    /** The Bellows options of this run's engine (its scheme and policy applied). */
    EngineOptions bellowsOptions() {
        return engine.apply(engineOptions);
    }
}
