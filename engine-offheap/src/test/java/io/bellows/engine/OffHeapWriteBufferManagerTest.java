package io.bellows.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link WriteBufferManagerTest}'s scenario with off-heap MemStores, whose chunks the budget counts. */
class OffHeapWriteBufferManagerTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"NONE", "EAGER"})
    void theEngineHoldingTheMostIsFlushedWhileAnotherWrites(InMemoryCompaction policy) throws Exception {
        WriteBufferManagerTest.largestIsFlushedWhileAnotherWrites(dir,
                EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).inMemoryCompaction(policy));
    }
}
