package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class GuardSetTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void recordsMatchTheSpecExample() {
        // docs/formats/manifest.md, "FLSM guard records".
        assertArrayEquals(new byte[] {0x01, 0x02, 'g', 'k'}, GuardRecords.select(2, b("gk")));
        assertArrayEquals(new byte[] {0x02, 0x04, (byte) 0x81, 0x01, 'g', 'k'}, GuardRecords.commit(4, 129, b("gk")));
        assertArrayEquals(new byte[] {0x03, 'g', 'k'}, GuardRecords.delete(b("gk")));
    }

    @Test
    void selectCommitDeleteAndSnapshot() {
        GuardSet s = new GuardSet(5);
        s.apply(GuardRecords.select(2, b("m")));
        s.apply(GuardRecords.select(3, b("c")));
        assertEquals(2, s.uncommitted().size());
        s.apply(GuardRecords.commit(4, 7, b("m")));
        s.apply(GuardRecords.commit(3, 7, b("m")));
        GuardSet.Guard m = s.get(b("m"));
        assertEquals(3, m.committedFrom);
        assertTrue(m.committedAt(4) && !m.committedAt(2));
        assertEquals(8, s.allocateId(), "ids continue after the largest recorded");
        s.apply(GuardRecords.commit(2, 7, b("m")));
        assertEquals(1, s.uncommitted().size(), "m is committed from its top level on");
        assertEquals(2, s.cutKeys(3, null, null).length);
        assertEquals(1, s.cutKeys(2, null, null).length);
        assertEquals(0, s.cutKeys(3, b("c"), b("m")).length, "bounds are exclusive");

        GuardSet copy = new GuardSet(5);
        for (byte[] r : s.snapshot()) {
            copy.apply(r);
        }
        assertEquals(2, copy.get(b("m")).committedFrom);
        assertEquals(7, copy.get(b("m")).id);
        assertEquals(5, copy.get(b("c")).committedFrom, "c is committed nowhere");

        s.apply(GuardRecords.delete(b("m")));
        assertNull(s.get(b("m")));
        assertThrows(IllegalStateException.class, () -> s.apply(new byte[] {9}));
    }

    @Test
    void splitterCutsAtGuardsAndSize() {
        GuardSplitter sp = new GuardSplitter(new byte[][] {b("d"), b("k")}, 1000);
        sp.tableStarted(b("e"));
        assertEquals(false, sp.splitBefore(b("f"), 10));
        assertEquals(true, sp.splitBefore(b("k"), 10), "cut before the guard key itself");
        sp.tableStarted(b("k"));
        assertEquals(false, sp.splitBefore(b("z"), 10));
        assertEquals(true, sp.splitBefore(b("zz"), 1000), "cut at the target size");
    }
}
