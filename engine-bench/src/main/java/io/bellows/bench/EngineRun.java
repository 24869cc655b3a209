package io.bellows.bench;

import java.util.List;

/**
 * What one engine configuration measured: every workload's result in order.
 *
 * @param engine the configuration's label ("bellows:LEVELED/NONE", "rocksdb")
 * @param options the engine options as text, for the record
 */
record EngineRun(String engine, String options, List<WorkloadResult> results) {
    EngineRun {
        results = List.copyOf(results);
    }
}
