package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JMH suite's entry point decodes what the block builder wrote. */
class BlockDecodingTest {
    @Test
    void decodesEveryEntryAndSeeksPresentKeysOnly() {
        byte[][] keys = new byte[40][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new byte[] {0, (byte) (2 * i)};
        }
        BlockDecoding block = BlockDecoding.build(keys, new byte[100], 16);
        assertTrue(block.length() > 40 * 100);
        assertEquals(40 * 100, block.decodeAll());
        for (int i = 0; i < keys.length; i++) {
            assertTrue(block.seek(keys[i]), "key " + i);
            assertFalse(block.seek(new byte[] {0, (byte) (2 * i + 1)}), "absent key " + i);
        }
    }
}
