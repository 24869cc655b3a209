package io.bellows.engine.internal.compaction.trie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** LSM_TRIE's manifest records: their bytes, and shapes no TrieOptions could make refused as damage. */
class TrieRecordsTest {
    @Test
    void shapeBytesRoundTrip() {
        TrieRecords.Shape s = new TrieRecords.Shape(0x0102030405060708L, 5, 8192);
        byte[] b = s.encode();
        assertArrayEquals(new byte[] {1, 8, 7, 6, 5, 4, 3, 2, 1, 5, 0x00, 0x20}, b);
        assertEquals(s, TrieRecords.Shape.decode(b));
        assertEquals(65000, TrieRecords.Shape.decode(new TrieRecords.Shape(1, 2, 65000).encode()).buckets());
    }

    @Test
    void aShapeOutsideTheOptionsRangesIsRefused() {
        // The bucket count of a store opened without tableBuckets comes from here: 0 would never size a table.
        assertThrows(IllegalStateException.class, () -> TrieRecords.Shape.decode(new TrieRecords.Shape(1, 5, 0).encode()));
        assertThrows(IllegalStateException.class, () -> TrieRecords.Shape.decode(new TrieRecords.Shape(1, 5, 3).encode()));
        assertThrows(IllegalStateException.class, () -> TrieRecords.Shape.decode(new TrieRecords.Shape(1, 1, 16).encode()));
        assertThrows(IllegalStateException.class, () -> TrieRecords.Shape.decode(new TrieRecords.Shape(1, 9, 16).encode()));
        assertThrows(IllegalStateException.class, () -> TrieRecords.Shape.decode(new byte[11]));
    }

    @Test
    void garbageRoundTrips() {
        TrieRecords.Garbage g = new TrieRecords.Garbage(300, 412);
        byte[] b = g.encode();
        assertArrayEquals(new byte[] {2, (byte) 0xac, 0x02, (byte) 0x9c, 0x03}, b);
        assertEquals(g, TrieRecords.Garbage.decode(b));
    }
}
