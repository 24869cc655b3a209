package io.bellows.engine.internal.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WritePressureTest {
    @Test
    void limitsAreInclusive() {
        assertEquals(WritePressure.NONE, WritePressure.of(19, 20, 36));
        assertEquals(WritePressure.SLOWDOWN, WritePressure.of(20, 20, 36));
        assertEquals(WritePressure.SLOWDOWN, WritePressure.of(35.9, 20, 36));
        assertEquals(WritePressure.STOP, WritePressure.of(36, 20, 36));
    }
}
