package io.bellows.engine.internal.compaction;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.key.InternalKeys;
import org.junit.jupiter.api.Test;

/**
 * The array entry point of the SSTable sink refuses what {@code TableBuilder.add(byte[]...)} refuses, rather than
 * writing a missing PUT value as an empty one through its view path.
 */
class TableOutputsTest {
    @Test
    void aPutWithoutValueIsRefusedBeforeAnythingIsWritten() {
        // No file system or version set: the check must come before either is touched.
        TableOutputs out = new TableOutputs(null, null, null, null, null, null, null);
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> out.add(new byte[] {1}, 1, InternalKeys.KIND_PUT, null));
        assertTrue(e.getMessage().contains("value of a PUT"), e.getMessage());
        NullPointerException k = assertThrows(NullPointerException.class,
                () -> out.add((byte[]) null, 1, InternalKeys.KIND_DELETE, null));
        assertTrue(k.getMessage().contains("key"), k.getMessage());
    }
}
