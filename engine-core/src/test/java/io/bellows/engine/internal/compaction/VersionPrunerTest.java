package io.bellows.engine.internal.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.key.InternalKeys;
import org.junit.jupiter.api.Test;

class VersionPrunerTest {
    private static final int PUT = InternalKeys.KIND_PUT;
    private static final int DEL = InternalKeys.KIND_DELETE;

    @Test
    void withoutSnapshotsOnlyTheNewestVersionSurvives() {
        VersionPruner p = new VersionPruner(new long[0], null);
        byte[] k = "k".getBytes();
        assertTrue(p.keep(k, 30, PUT));
        assertFalse(p.keep(k, 20, PUT));
        assertFalse(p.keep(k, 10, DEL));
        assertTrue(p.keep("l".getBytes(), 5, PUT));
        assertEquals(2, p.dropped());
    }

    @Test
    void eachSnapshotKeepsTheVersionItSees() {
        // Snapshots at 15 and 25: stripes (..15], (15..25], (25..).
        VersionPruner p = new VersionPruner(new long[] {15, 25}, null);
        byte[] k = "k".getBytes();
        assertTrue(p.keep(k, 40, PUT));
        assertFalse(p.keep(k, 30, PUT));
        assertTrue(p.keep(k, 25, PUT));
        assertFalse(p.keep(k, 20, PUT));
        assertTrue(p.keep(k, 12, PUT));
        assertFalse(p.keep(k, 3, PUT));
    }

    @Test
    void tombstonesGoOnlyAtTheBaseLevelAndBelowEverySnapshot() {
        byte[] k = "k".getBytes();
        VersionPruner notBase = new VersionPruner(new long[0], key -> false);
        assertTrue(notBase.keep(k, 10, DEL));
        VersionPruner base = new VersionPruner(new long[0], key -> true);
        assertFalse(base.keep(k, 10, DEL));
        assertFalse(base.keep(k, 5, PUT));
        VersionPruner snap = new VersionPruner(new long[] {5}, key -> true);
        assertTrue(snap.keep(k, 10, DEL), "a snapshot at 5 still sees the put below the tombstone");
        assertTrue(snap.keep(k, 4, PUT));
        VersionPruner neverDrops = new VersionPruner(new long[0], null);
        assertTrue(neverDrops.keep(k, 10, DEL));
    }
}
