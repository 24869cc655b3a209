package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MemoryLayout as engine-core sees it: OFF_HEAP needs engine-offheap, which is not on this module's
 * class path, and its options must fit together.
 */
class MemoryLayoutTest {
    @TempDir
    Path dir;

    @Test
    void offHeapWithoutTheModuleFailsNamingIt() {
        for (InMemoryCompaction policy : InMemoryCompaction.values()) {
            EngineOptions options = EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP)
                    .inMemoryCompaction(policy).build();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Engine.open(dir, options));
            assertTrue(e.getMessage().contains("io.bellows:engine-offheap"), e.getMessage());
            assertTrue(e.getMessage().contains("OFF_HEAP"), e.getMessage());
        }
        // The failed opens left the directory usable: nothing on disk depends on the layout.
        try (Engine db = Engine.open(dir, EngineOptions.builder().build())) {
            db.put("k".getBytes(), "v".getBytes());
            assertArrayEquals("v".getBytes(), db.get("k".getBytes()));
        }
    }

    @Test
    void offHeapNeedsMslab() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).mslab(false).build());
        assertTrue(e.getMessage().contains("OFF_HEAP") && e.getMessage().contains("mslab(false)"), e.getMessage());
        EngineOptions.builder().memoryLayout(MemoryLayout.ON_HEAP).mslab(false).build();
    }

    @Test
    void offHeapLimitHoldsThreeMemStores() {
        long memstore = 1 << 20;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).memstoreSize(memstore)
                        .offHeapLimit(3 * memstore - 1).build());
        assertTrue(e.getMessage().contains("offHeapLimit (" + (3 * memstore - 1) + ")"), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(3 * memstore)), "names the smallest limit: " + e.getMessage());
        assertEquals(3 * memstore, EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).memstoreSize(memstore)
                .offHeapLimit(3 * memstore).build().offHeapLimit());

        e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder().offHeapLimit((1 << 20) - 1));
        assertTrue(e.getMessage().contains("offHeapLimit"), e.getMessage());
        EngineOptions unset = EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).memstoreSize(memstore).build();
        assertEquals(0, unset.offHeapLimit(), "0: not set");
        assertEquals(4 * memstore, EngineOptions.defaultOffHeapLimit(memstore));
        assertEquals(MemoryLayout.ON_HEAP, EngineOptions.builder().build().memoryLayout(), "the default layout");
    }
}
