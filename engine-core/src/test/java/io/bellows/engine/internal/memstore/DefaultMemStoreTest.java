package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.memstore.spi.Segment;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DefaultMemStoreTest {
    private static byte[] b(String s) {
        return s.getBytes();
    }

    @Test
    void lookupsSeeTheNewestVersionAtOrBelowTheSequence() {
        DefaultMemStore m = new DefaultMemStore(1 << 20, new OnHeapLayout(null, false));
        m.add(b("k"), 1, InternalKeys.KIND_PUT, b("v1"));
        m.add(b("k"), 5, InternalKeys.KIND_PUT, b("v5"));
        m.add(b("k"), 7, InternalKeys.KIND_DELETE, null);
        Lookup lk = new Lookup();
        MemStoreView v = m.view();
        assertTrue(v.get(b("k"), 100, lk));
        assertEquals(InternalKeys.KIND_DELETE, lk.kind);
        assertTrue(v.get(b("k"), 6, lk));
        assertArrayEquals(b("v5"), lk.copyValue());
        assertTrue(v.get(b("k"), 1, lk));
        assertArrayEquals(b("v1"), lk.copyValue());
        assertFalse(v.get(b("k"), 0, lk));
        assertFalse(v.get(b("j"), 100, lk));
        assertFalse(v.get(b("kk"), 100, lk));
    }

    @Test
    void snapshotMovesDataAndOldViewsStillReadIt() {
        DefaultMemStore m = new DefaultMemStore(100, new OnHeapLayout(null, false));
        for (int i = 0; i < 10; i++) {
            m.add(b("key" + i), i + 1, InternalKeys.KIND_PUT, b("value" + i));
        }
        assertTrue(m.shouldFlush());
        MemStoreView before = m.view();
        List<Segment> snap = m.snapshot();
        assertEquals(1, snap.size());
        assertTrue(m.hasSnapshot());
        assertTrue(m.isActiveEmpty());
        assertFalse(m.shouldFlush());
        m.add(b("key0"), 11, InternalKeys.KIND_PUT, b("new"));
        Lookup lk = new Lookup();
        assertTrue(m.view().get(b("key0"), 100, lk));
        assertArrayEquals(b("new"), lk.copyValue());
        assertTrue(m.view().get(b("key3"), 100, lk), "the snapshot is still read until cleared");
        m.clearSnapshot();
        assertFalse(m.view().get(b("key3"), 100, lk));
        assertTrue(before.get(b("key3"), 100, lk), "a view taken before keeps its segments");
        assertEquals(11, m.minSequence());
    }

    @Test
    void iteratorIsInInternalOrderAndAccountingCountsOverhead() {
        DefaultMemStore m = new DefaultMemStore(1 << 20, new OnHeapLayout(null, false));
        m.add(b("b"), 2, InternalKeys.KIND_PUT, b("x"));
        m.add(b("a"), 3, InternalKeys.KIND_PUT, b("y"));
        m.add(b("b"), 4, InternalKeys.KIND_PUT, b("z"));
        try (InternalIterator it = m.view().iterators().get(0)) {
            it.seekToFirst();
            assertArrayEquals(b("a"), it.key());
            it.next();
            assertEquals(4, it.sequence());
            it.next();
            assertEquals(2, it.sequence());
            it.next();
            assertFalse(it.isValid());
            it.seek(b("b"), 3);
            assertEquals(2, it.sequence());
        }
        assertEquals(6, m.dataSize());
        assertTrue(m.heapSize() >= 6 + 3 * SkipListSegment.SKIPLIST_ENTRY_OVERHEAD);
        assertEquals(2, m.minSequence());
    }
}
