package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The user-level walk back of {@link DbCursor} (LevelDB's FindPrevUserEntry) over keys with several
 * versions and tombstones spread over tables and the MemStore, at snapshots that hide some of them,
 * and the turns between next and prev, which must leave the merge on the right side of a key.
 */
class DbCursorReverseTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** "key=value" for the cursor's entry, or "-" when it is not valid. */
    private static String at(Cursor c) {
        return c.isValid() ? s(c.key()) + "=" + s(c.value()) : "-";
    }

    private static List<String> backward(Cursor c) {
        List<String> out = new ArrayList<>();
        for (c.seekToLast(); c.isValid(); c.prev()) {
            out.add(at(c));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = "LSM_TRIE", mode = EnumSource.Mode.EXCLUDE)
    void walksBackOverVersionsTombstonesAndSnapshots(CompactionStyle style) {
        try (Engine db = Engine.open(dir, EngineConfigs.small(style, InMemoryCompaction.NONE).build())) {
            db.put(b("a"), b("a1"));
            db.put(b("b"), b("b1"));
            db.put(b("c"), b("c1"));
            Snapshot s1 = db.snapshot();
            db.delete(b("b"));
            db.put(b("c"), b("c2"));
            db.put(b("d"), b("d1"));
            for (int i = 0; i < 50; i++) {
                db.put(b("m"), b("m" + i));
            }
            db.flush();
            Snapshot s2 = db.snapshot();
            db.put(b("a"), b("a2"));
            db.delete(b("d"));
            db.put(b("e"), b("e1"));
            db.put(b("b"), b("b3"));
            db.delete(b("b"));
            db.delete(b("m"));
            db.compactRange(null, null);
            db.put(b("c"), b("c3"));

            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                assertEquals(List.of("e=e1", "c=c3", "a=a2"), backward(c));
            }
            try (Cursor c = db.cursor(ReadOptions.at(s1))) {
                assertEquals(List.of("c=c1", "b=b1", "a=a1"), backward(c));
            }
            try (Cursor c = db.cursor(ReadOptions.at(s2))) {
                assertEquals(List.of("m=m49", "d=d1", "c=c2", "a=a1"), backward(c));
                c.seekForPrev(b("l"));
                assertEquals("d=d1", at(c));
                c.next();
                assertEquals("m=m49", at(c));
                c.prev();
                assertEquals("d=d1", at(c));
            }
            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                c.seekForPrev(b("bz"));
                assertEquals("a=a2", at(c));
                c.seekForPrev(b("d"));
                assertEquals("c=c3", at(c), "d is deleted");
                c.seekForPrev(b("c"));
                assertEquals("c=c3", at(c));
                c.seek(b("c"));
                c.prev();
                assertEquals("a=a2", at(c));
                c.next();
                assertEquals("c=c3", at(c));
                c.next();
                assertEquals("e=e1", at(c));
                c.prev();
                assertEquals("c=c3", at(c));
                c.prev();
                c.prev();
                assertFalse(c.isValid());
                assertThrows(IllegalStateException.class, c::prev);
                c.seekForPrev(b(""));
                assertFalse(c.isValid());
            }
            s1.close();
            s2.close();
        }
    }

    /**
     * Backward, the merge stops at the first visible entry of a smaller key, past versions it hides: a
     * following next must skip those too (LevelDB's FindNextUserEntry skips keys at or before the saved
     * one, not only equal ones).
     */
    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = "LSM_TRIE", mode = EnumSource.Mode.EXCLUDE)
    void turnsForwardPastKeysHiddenBySnapshot(CompactionStyle style) {
        try (Engine db = Engine.open(dir, EngineConfigs.small(style, InMemoryCompaction.NONE).build())) {
            db.put(b("a"), b("a1"));
            db.put(b("c"), b("c1"));
            db.put(b("e"), b("e1"));
            db.flush();
            try (Snapshot snap = db.snapshot()) {
                db.put(b("b"), b("b2"));
                db.put(b("d"), b("d2"));
                db.put(b("c"), b("c2"));
                try (Cursor c = db.cursor(ReadOptions.at(snap))) {
                    c.seekToLast();
                    assertEquals("e=e1", at(c));
                    c.prev();
                    assertEquals("c=c1", at(c));
                    c.next();
                    assertEquals("e=e1", at(c));
                    c.prev();
                    c.prev();
                    assertEquals("a=a1", at(c));
                    c.next();
                    assertEquals("c=c1", at(c));
                    c.next();
                    c.next();
                    assertFalse(c.isValid());
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = "LSM_TRIE", mode = EnumSource.Mode.EXCLUDE)
    void boundsHoldBackward(CompactionStyle style) {
        try (Engine db = Engine.open(dir, EngineConfigs.small(style, InMemoryCompaction.NONE).build())) {
            for (String k : new String[] {"a", "b", "c", "d", "e"}) {
                db.put(b(k), b(k + "1"));
            }
            db.flush();
            db.delete(b("c"));
            try (Cursor c = db.cursor(ReadOptions.defaults().from(b("b")).to(b("e")))) {
                assertEquals(List.of("d=d1", "b=b1"), backward(c));
                c.seekForPrev(b("zz"));
                assertEquals("d=d1", at(c), "clamped below the upper bound");
                c.seekForPrev(b("e"));
                assertEquals("d=d1", at(c), "the upper bound is exclusive");
                c.seekForPrev(b("a"));
                assertFalse(c.isValid(), "below the lower bound");
                c.seekToFirst();
                c.prev();
                assertFalse(c.isValid());
                c.seekToLast();
                c.next();
                assertFalse(c.isValid());
                c.seekForPrev(b("bb"));
                assertArrayEquals(b("b"), c.key());
                c.next();
                assertTrue(c.isValid());
                assertEquals("d=d1", at(c));
            }
        }
    }
}
