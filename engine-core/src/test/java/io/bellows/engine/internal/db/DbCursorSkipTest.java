package io.bellows.engine.internal.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TestSeeds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cursor's seeks past runs of versions ({@link DbCursor#MAX_SEQUENTIAL_SKIP}): a few keys, one of
 * them updated and deleted hundreds of times across the MemStore and tables, read at snapshots that hide
 * runs of newer versions, with bounds, by random moves both ways checked against a TreeMap of each view.
 */
class DbCursorSkipTest {
    private static final String[] KEYS = {"a", "b", "h", "p", "q", "z"};
    private static final String HOT = "h";

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String at(Cursor c) {
        return c.isValid() ? new String(c.key(), StandardCharsets.UTF_8) + "=" + new String(c.value(),
                StandardCharsets.UTF_8) : "-";
    }

    /** One view of the store: the cursor's options and the model it must show. */
    private record View(String name, Snapshot snapshot, NavigableMap<String, String> model) {}

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = "LSM_TRIE", mode = EnumSource.Mode.EXCLUDE)
    void randomMovesMatchTheModel(CompactionStyle style) {
        long seed = TestSeeds.seed("DbCursorSkipTest[" + style + "]");
        Random rnd = new Random(seed);
        List<View> views = new ArrayList<>();
        try (Engine db = Engine.open(dir, EngineConfigs.small(style, InMemoryCompaction.NONE).build())) {
            TreeMap<String, String> model = new TreeMap<>();
            for (int op = 0; op < 3_000; op++) {
                String k = rnd.nextInt(3) > 0 ? HOT : KEYS[rnd.nextInt(KEYS.length)];
                int r = rnd.nextInt(100);
                if (r < 75) {
                    String v = k + op;
                    db.put(b(k), b(v));
                    model.put(k, v);
                } else if (r < 95) {
                    db.delete(b(k));
                    model.remove(k);
                } else if (r < 97) {
                    db.flush();
                } else if (r < 98 && views.size() < 4) {
                    views.add(new View("snapshot at op " + op, db.snapshot(), new TreeMap<>(model)));
                } else if (r == 98 && op % 7 == 0) {
                    db.compactRange(null, null);
                }
            }
            views.add(new View("latest", null, model));
            for (View view : views) {
                for (int round = 0; round < 20; round++) {
                    check(db, view, rnd, seed);
                }
                if (view.snapshot() != null) {
                    view.snapshot().close();
                }
            }
        }
    }

    /** A key between or beside the store's keys, or one of them. */
    private static String target(Random rnd) {
        String k = KEYS[rnd.nextInt(KEYS.length)];
        return switch (rnd.nextInt(3)) {
            case 0 -> k;
            case 1 -> k + "0";
            default -> (char) (k.charAt(0) - 1) + "z";
        };
    }

    private static void check(Engine db, View view, Random rnd, long seed) {
        String lower = rnd.nextInt(3) == 0 ? target(rnd) : null;
        String upper = rnd.nextInt(3) == 0 ? target(rnd) : null;
        NavigableMap<String, String> m = view.model();
        if (lower != null && upper != null) {
            m = lower.compareTo(upper) <= 0 ? m.subMap(lower, true, upper, false) : new TreeMap<>();
        } else if (lower != null) {
            m = m.tailMap(lower, true);
        } else if (upper != null) {
            m = m.headMap(upper, false);
        }
        ReadOptions o = view.snapshot() == null ? ReadOptions.defaults() : ReadOptions.at(view.snapshot());
        if (lower != null) {
            o = o.from(b(lower));
        }
        if (upper != null && (lower == null || lower.compareTo(upper) <= 0)) {
            o = o.to(b(upper));
        } else if (upper != null) {
            o = o.to(b(lower));
        }
        String where = view.name() + ", bounds [" + lower + ", " + upper + "), seed " + seed;
        try (Cursor c = db.cursor(o)) {
            String expected = null;
            StringBuilder moves = new StringBuilder();
            for (int move = 0; move < 30; move++) {
                int r = rnd.nextInt(expected == null ? 4 : 6);
                switch (r) {
                    case 0 -> {
                        String t = target(rnd);
                        c.seek(b(t));
                        expected = m.ceilingKey(t);
                        moves.append(" seek(").append(t).append(')');
                    }
                    case 1 -> {
                        String t = target(rnd);
                        c.seekForPrev(b(t));
                        expected = m.floorKey(t);
                        moves.append(" seekForPrev(").append(t).append(')');
                    }
                    case 2 -> {
                        c.seekToFirst();
                        expected = m.isEmpty() ? null : m.firstKey();
                        moves.append(" first");
                    }
                    case 3 -> {
                        c.seekToLast();
                        expected = m.isEmpty() ? null : m.lastKey();
                        moves.append(" last");
                    }
                    case 4 -> {
                        c.next();
                        expected = m.higherKey(expected);
                        moves.append(" next");
                    }
                    default -> {
                        c.prev();
                        expected = m.lowerKey(expected);
                        moves.append(" prev");
                    }
                }
                assertEquals(expected == null ? "-" : expected + "=" + m.get(expected), at(c),
                        where + ", after" + moves);
            }
        }
    }

    /**
     * The same walk over one key with far more versions than the skip's threshold, every one of them
     * hidden from the older snapshot: both directions must step past the whole run and nothing else.
     */
    @Test
    void passesLongRunsOfHiddenVersions() {
        try (Engine db = Engine.open(dir, EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE)
                .build())) {
            db.put(b("a"), b("a0"));
            db.put(b("m"), b("m0"));
            db.put(b("z"), b("z0"));
            try (Snapshot old = db.snapshot()) {
                for (int i = 1; i <= 200; i++) {
                    db.put(b("m"), b("m" + i));
                    if (i == 100) {
                        db.flush();
                    }
                }
                db.delete(b("a"));
                try (Cursor c = db.cursor(ReadOptions.at(old))) {
                    c.seekToFirst();
                    assertEquals("a=a0", at(c));
                    c.next();
                    assertEquals("m=m0", at(c));
                    c.next();
                    assertEquals("z=z0", at(c));
                    c.prev();
                    assertEquals("m=m0", at(c));
                    c.prev();
                    assertEquals("a=a0", at(c));
                    c.next();
                    assertEquals("m=m0", at(c));
                }
                try (Cursor c = db.cursor(ReadOptions.defaults())) {
                    c.seekToLast();
                    assertEquals("z=z0", at(c));
                    c.prev();
                    assertEquals("m=m200", at(c));
                    c.prev();
                    assertEquals("-", at(c), "a is deleted");
                    c.seek(b("m"));
                    c.next();
                    assertEquals("z=z0", at(c));
                    c.prev();
                    assertEquals("m=m200", at(c));
                    c.next();
                    assertEquals("z=z0", at(c));
                }
            }
        }
    }
}
