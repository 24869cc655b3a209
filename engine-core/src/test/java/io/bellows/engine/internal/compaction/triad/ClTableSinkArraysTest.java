package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.key.InternalKeys;
import org.junit.jupiter.api.Test;

/** The CL-table sink's array entry point refuses a PUT without value, as the SSTable sink does. */
class ClTableSinkArraysTest {
    @Test
    void aPutWithoutValueIsRefusedBeforeAnythingIsWritten() {
        // No context: the check must come before a table is started.
        ClTableSink sink = new ClTableSink(null, new long[] {7}, null, new TableLogs(), new ClTableStats());
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> sink.add(new byte[] {1}, 1, InternalKeys.KIND_PUT, null));
        assertTrue(e.getMessage().contains("value of a PUT"), e.getMessage());
    }
}
