package io.bellows.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link EstimatedKeysTest}'s scenario over off-heap segments, serialized ones included. */
class OffHeapEstimatedKeysTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"NONE", "BASIC", "EAGER"})
    void segmentsCountTheirTombstones(InMemoryCompaction policy) {
        EstimatedKeysTest.estimate(dir, CompactionStyle.LEVELED,
                EngineConfigs.small(CompactionStyle.LEVELED, policy, MemoryLayout.OFF_HEAP).build());
    }
}
