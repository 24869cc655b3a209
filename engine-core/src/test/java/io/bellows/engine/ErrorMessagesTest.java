package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets a clear error naming the option or limit (the smaller messages of issue 21). */
class ErrorMessagesTest {
    @TempDir
    Path dir;

    private static void assertMentions(Throwable e, String... words) {
        for (String w : words) {
            assertTrue(String.valueOf(e.getMessage()).contains(w), "'" + e.getMessage() + "' should mention " + w);
        }
    }

    @Test
    void walSyncIntervalBeyondItsRangeNamesIt() {
        assertMentions(assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().walSyncInterval(Duration.ofSeconds(Long.MAX_VALUE))), "walSyncInterval", "1 h");
        assertMentions(assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().walSyncInterval(Duration.ofNanos(10))), "walSyncInterval", "1 ms");
        assertMentions(assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder().walSyncInterval(Duration.ofMillis(-5))), "walSyncInterval");
    }

    @Test
    void nullArgumentsNameTheParameter() {
        assertMentions(assertThrows(NullPointerException.class, () -> WriteOptions.of(null)), "durability");
        assertMentions(assertThrows(NullPointerException.class, () -> ReadOptions.at(null)), "snapshot");
        assertMentions(assertThrows(NullPointerException.class, () -> EngineOptions.builder().walRecoveryMode(null)),
                "walRecoveryMode");
    }

    @Test
    void openingARegularFileSaysItIsNotADirectory() throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-store"), "hello");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Engine.open(file, EngineOptions.defaults()));
        assertMentions(e, file.toString(), "not a directory");
        assertArrayEquals("hello".getBytes(), Files.readAllBytes(file));
    }

    @Test
    void maxValueLengthAboveOffHeapLimitIsRefusedByTheBuilder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineOptions.builder()
                .memoryLayout(MemoryLayout.OFF_HEAP).memstoreSize(1 << 20).offHeapLimit(4 << 20)
                .maxValueLength(16 << 20).build());
        assertMentions(e, "maxValueLength", "offHeapLimit");
        // The default maxValueLength is not a choice: such a write is refused when it is made.
        EngineOptions.builder().memoryLayout(MemoryLayout.OFF_HEAP).memstoreSize(1 << 20).offHeapLimit(4 << 20).build();
        EngineOptions.builder().memoryLayout(MemoryLayout.ON_HEAP).memstoreSize(1 << 20).offHeapLimit(4 << 20)
                .maxValueLength(16 << 20).build();
    }

    /** An interrupted get either reads (from cache) or says it was interrupted; never "get failed: null". */
    @Test
    void interruptedGetSaysSo() {
        EngineOptions options = EngineOptions.builder().memstoreSize(64 << 10).blockCacheSize(0).build();
        byte[] value = new byte[200];
        try (Engine db = Engine.open(dir.resolve("db"), options)) {
            for (int i = 0; i < 2000; i++) {
                db.put(("key" + i).getBytes(), value);
            }
            db.flush();
        }
        try (Engine db = Engine.open(dir.resolve("db"), options)) {
            for (int i = 0; i < 50; i++) {
                Thread.currentThread().interrupt();
                try {
                    assertArrayEquals(value, db.get(("key" + (i * 37)).getBytes()));
                } catch (EngineIOException e) {
                    assertMentions(e, "interrupted");
                    assertFalse(e.getMessage().contains("null"), e.getMessage());
                } finally {
                    Thread.interrupted();
                }
            }
            assertArrayEquals(value, db.get("key1".getBytes()), "the engine still reads after interrupts");
        }
    }
}
