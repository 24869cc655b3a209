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
        int valueSizeMin) {

    BenchOptions {
        benchmarks = List.copyOf(benchmarks);
    }
}
