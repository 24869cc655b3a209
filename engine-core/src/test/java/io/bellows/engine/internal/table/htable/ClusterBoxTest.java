package io.bellows.engine.internal.table.htable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A BloomCluster box read as a get's flyweight: its resumable scan answers for every table it lists in
 * any order of asking, refuses a table it does not list, and starts afresh when pointed at another box.
 */
class ClusterBoxTest {
    /** Filters of one byte of bits and a probe count of 1: all bits set (any key may be there), or none. */
    private static final byte[] ALL = {(byte) 0xff, 1};
    private static final byte[] NONE = {0, 1};

    /** A box of tables 900 (all bits), 7 (no bits), 300 (empty filter: no key homed here), behind 5 bytes. */
    private static byte[] page() {
        return new byte[] {
            9, 9, 9, 9, 9,
            3,
            (byte) 0x84, 0x07, 2, ALL[0], ALL[1],
            7, 2, NONE[0], NONE[1],
            (byte) 0xac, 0x02, 0,
            9, 9};
    }

    @Test
    void answersForEveryListedTableInAnyOrder() {
        byte[] p = page();
        ClusterBox box = new ClusterBox().set(p, 5, p.length - 2);
        long[][] orders = {{900, 7, 300}, {300, 7, 900}, {7, 7, 900, 300, 300, 7}};
        for (long[] order : orders) {
            for (long n : order) {
                assertTrue(box.covers(n), "table " + n);
                assertEquals(n == 900, box.mayContain(n, 0x1234_5678_9abcL), "table " + n);
            }
        }
        assertFalse(box.covers(8));
        assertThrows(IllegalArgumentException.class, () -> box.mayContain(8, 1));
        // Asked again after a miss, from wherever the scan stopped.
        assertTrue(box.covers(300));
        assertTrue(box.mayContain(900, 42));
    }

    @Test
    void aBoxPointedElsewhereForgetsWhatItFound() {
        byte[] p = page();
        ClusterBox box = new ClusterBox().set(p, 5, p.length - 2);
        assertTrue(box.mayContain(900, 1));
        byte[] other = {1, 5, 2, NONE[0], NONE[1]};
        box.set(other, 0, other.length);
        assertFalse(box.covers(900), "table 900 is not in the second box");
        assertTrue(box.covers(5));
        assertFalse(box.mayContain(5, 1));
    }

    @Test
    void aFilterLengthPastTheBoxIsMalformed() {
        byte[] bad = {1, 5, 9, 0, 1};
        ClusterBox box = new ClusterBox().set(bad, 0, bad.length);
        assertThrows(IllegalStateException.class, () -> box.covers(5));
    }
}
