package io.bellows.engine.internal.compaction.flsm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.TestSeeds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    /** The per-level view of committed guards follows every record, as filtering all guards would. */
    @Test
    void committedPerLevelFollowsRandomRecords() {
        long seed = TestSeeds.seed("GuardSetTest.committedPerLevel");
        Random rnd = new Random(seed);
        int numLevels = 5;
        GuardSet s = new GuardSet(numLevels);
        for (int i = 0; i < 5000; i++) {
            byte[] key = b("k" + rnd.nextInt(300));
            int kind = rnd.nextInt(10);
            if (kind < 4) {
                s.apply(GuardRecords.select(1 + rnd.nextInt(numLevels), key));
            } else if (kind < 9) {
                s.apply(GuardRecords.commit(1 + rnd.nextInt(numLevels - 1), 1 + rnd.nextInt(3), key));
            } else {
                s.apply(GuardRecords.delete(key));
            }
            for (int level = 0; level < numLevels; level++) {
                List<byte[]> expected = new ArrayList<>();
                for (GuardSet.Guard g : s.all().values()) {
                    if (g.committedAt(level)) {
                        expected.add(g.key);
                    }
                }
                List<byte[]> actual = new ArrayList<>(s.committed(level).keySet());
                assertEquals(expected.size(), actual.size(), "record " + i + " level " + level + ", seed=" + seed);
                for (int j = 0; j < expected.size(); j++) {
                    assertArrayEquals(expected.get(j), actual.get(j), "record " + i + " level " + level + ", seed=" + seed);
                    assertTrue(s.committed(level).get(expected.get(j)) == s.get(expected.get(j)), "seed=" + seed);
                }
            }
        }
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
