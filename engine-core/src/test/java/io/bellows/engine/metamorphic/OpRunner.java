package io.bellows.engine.metamorphic;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.io.CrashableFileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * Runs an op log against one configuration on a crashable in-memory file system and, op by op, against
 * the {@link ModelStore}; every op's observable result (what a read returned, what a crash kept) is
 * rendered as text and must equal the model's. Since every configuration must match the model, all of
 * them match each other.
 */
final class OpRunner {
    private static final Path DIR = Path.of("/db");
    /** The key a crash-restart syncs, after every key of the generated key space. */
    private static final String SYNC_KEY = "zsync";

    /** The first op whose result differs from the model's. */
    static final class Divergence extends AssertionError {
        final int op;

        Divergence(int op, String message, Throwable cause) {
            super(message, cause);
            this.op = op;
        }
    }

    private final EngineOptions options;
    private final boolean ordered;
    private CrashableFileSystem fs = new CrashableFileSystem();
    private EngineImpl db;
    private final ModelStore model = new ModelStore();
    private final Map<Integer, Snapshot> snapshots = new HashMap<>();
    private int syncs;
    /** Whether the crash-restart being applied must flush first: unlogged writes may be only in memory. */
    private boolean flushBeforeCrash;

    OpRunner(EngineOptions options) {
        this.options = options;
        this.ordered = options.compaction() != CompactionStyle.LSM_TRIE;
    }

    /** Runs {@code ops}; throws a {@link Divergence} at the first op whose result differs from the model's. */
    void run(List<Op> ops) {
        db = EngineImpl.open(DIR, options, fs);
        try {
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                String expected;
                String actual;
                try {
                    expected = expect(op);
                    actual = apply(op);
                } catch (RuntimeException | AssertionError e) {
                    throw new Divergence(i, "op " + i + " (" + op + ") failed: " + e, e);
                }
                if (!expected.equals(actual)) {
                    throw new Divergence(i, "op " + i + " (" + op + ")\n  model:  " + expected + "\n  engine: " + actual,
                            null);
                }
            }
        } finally {
            closeQuietly();
        }
    }

    /** The model's result; also applies the op to the model. */
    private String expect(Op op) {
        if (op instanceof Op.Put p) {
            model.write(List.of(p), p.durability());
            return "ok";
        } else if (op instanceof Op.Batch b) {
            model.write(b.writes(), b.durability());
            return "ok";
        } else if (op instanceof Op.Get g) {
            NavigableMap<String, String> view = model.view(g.snapshot());
            return view == null ? "no snapshot" : render(view.get(g.key()));
        } else if (op instanceof Op.Scan s) {
            NavigableMap<String, String> view = model.view(s.snapshot());
            if (view == null) {
                return "no snapshot";
            }
            if (!ordered) {
                return "unordered";
            }
            StringBuilder out = new StringBuilder();
            int n = 0;
            NavigableMap<String, String> range = range(view, s.from(), s.to());
            for (Map.Entry<String, String> e : (s.reverse() ? range.descendingMap() : range).entrySet()) {
                if (n++ == s.limit()) {
                    break;
                }
                out.append(e.getKey()).append('=').append(render(e.getValue())).append(' ');
            }
            return out.toString();
        } else if (op instanceof Op.TakeSnapshot t) {
            return model.takeSnapshot(t.id()) ? "ok" : "taken";
        } else if (op instanceof Op.ReleaseSnapshot r) {
            return model.releaseSnapshot(r.id()) ? "ok" : "no snapshot";
        } else if (op instanceof Op.Flush || op instanceof Op.CompactRange) {
            model.barrier();
            return "ok";
        } else if (op instanceof Op.Reopen) {
            model.dropSnapshots();
            model.barrier();
            return "ok";
        } else if (op instanceof Op.CrashCheck) {
            return "crash ok";
        } else if (op instanceof Op.CrashRestart) {
            flushBeforeCrash = model.unloggedSinceBarrier();
            model.dropSnapshots();
            model.write(List.of(new Op.Put(SYNC_KEY, "s" + syncs, Durability.SYNC)), Durability.SYNC);
            model.barrier();
            return "ok";
        }
        throw new IllegalArgumentException(String.valueOf(op));
    }

    private String apply(Op op) {
        if (op instanceof Op.Put p) {
            if (p.value() == null) {
                db.delete(bytes(p.key()), WriteOptions.of(p.durability()));
            } else {
                db.put(bytes(p.key()), bytes(p.value()), WriteOptions.of(p.durability()));
            }
            return "ok";
        } else if (op instanceof Op.Batch b) {
            WriteBatch batch = new WriteBatch();
            for (Op.Put p : b.writes()) {
                if (p.value() == null) {
                    batch.delete(bytes(p.key()));
                } else {
                    batch.put(bytes(p.key()), bytes(p.value()));
                }
            }
            db.write(batch, WriteOptions.of(b.durability()));
            return "ok";
        } else if (op instanceof Op.Get g) {
            ReadOptions ro = readOptions(g.snapshot());
            return ro == null ? "no snapshot" : render(string(db.get(bytes(g.key()), ro)));
        } else if (op instanceof Op.Scan s) {
            return scan(s);
        } else if (op instanceof Op.TakeSnapshot t) {
            if (snapshots.containsKey(t.id())) {
                return "taken";
            }
            snapshots.put(t.id(), db.snapshot());
            return "ok";
        } else if (op instanceof Op.ReleaseSnapshot r) {
            Snapshot s = snapshots.remove(r.id());
            if (s == null) {
                return "no snapshot";
            }
            s.close();
            return "ok";
        } else if (op instanceof Op.Flush) {
            db.flush();
            return "ok";
        } else if (op instanceof Op.CompactRange c) {
            db.compactRange(c.from().equals("*") ? null : bytes(c.from()), c.to().equals("*") ? null : bytes(c.to()));
            return "ok";
        } else if (op instanceof Op.Reopen) {
            releaseSnapshots();
            db.close();
            db = EngineImpl.open(DIR, options, fs);
            return "ok";
        } else if (op instanceof Op.CrashCheck c) {
            return crashCheck(c.tornSeed());
        } else if (op instanceof Op.CrashRestart) {
            return crashRestart();
        }
        throw new IllegalArgumentException(String.valueOf(op));
    }

    private String scan(Op.Scan s) {
        ReadOptions ro = readOptions(s.snapshot());
        if (ro == null) {
            return "no snapshot";
        }
        if (!ordered) {
            return "unordered";
        }
        if (!s.from().equals("*")) {
            ro = ro.from(bytes(s.from()));
        }
        if (!s.to().equals("*")) {
            ro = ro.to(bytes(s.to()));
        }
        StringBuilder out = new StringBuilder();
        try (Cursor c = db.cursor(ro)) {
            int n = 0;
            if (s.reverse()) {
                c.seekToLast();
            } else {
                c.seekToFirst();
            }
            for (; c.isValid() && n < s.limit(); n++) {
                out.append(string(c.key())).append('=').append(render(string(c.value()))).append(' ');
                if (s.reverse()) {
                    c.prev();
                } else {
                    c.next();
                }
            }
        }
        return out.toString();
    }

    /** Opens what a machine crash would leave now, on a copy of the files, and checks it; the run goes on. */
    private String crashCheck(long tornSeed) {
        CrashableFileSystem crashed = fs.crash(tornSeed);
        EngineImpl after = EngineImpl.open(DIR, options, crashed);
        try {
            StringBuilder bad = new StringBuilder();
            for (String key : model.crashKeys()) {
                String found = string(after.get(bytes(key)));
                List<String> allowed = model.crashValues(key);
                if (!allowed.contains(found)) {
                    bad.append(key).append('=').append(render(found)).append(" not in ").append(renderAll(allowed))
                            .append("; ");
                }
            }
            if (ordered) {
                try (Cursor c = after.cursor(ReadOptions.defaults())) {
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        if (!model.crashKeys().contains(string(c.key()))) {
                            bad.append(string(c.key())).append(" was never written; ");
                        }
                    }
                }
            } else {
                for (int k = 0; k < OpGenerator.KEYS; k++) {
                    String key = String.format("k%04d", k);
                    if (!model.crashKeys().contains(key) && after.get(bytes(key)) != null) {
                        bad.append(key).append(" was never written; ");
                    }
                }
            }
            return bad.length() == 0 ? "crash ok" : "crash lost or invented: " + bad;
        } finally {
            after.close();
        }
    }

    /**
     * Makes every write durable the same way in every configuration (a flush if unlogged writes may be in
     * memory, then a SYNC write that forces every logged one), crashes, and reopens the crashed files.
     */
    private String crashRestart() {
        releaseSnapshots();
        if (flushBeforeCrash) {
            db.flush();
        }
        db.put(bytes(SYNC_KEY), bytes("s" + syncs++), WriteOptions.sync());
        CrashableFileSystem crashed = fs.crash();
        db.close();
        fs = crashed;
        db = EngineImpl.open(DIR, options, fs);
        return "ok";
    }

    private ReadOptions readOptions(int snapshot) {
        if (snapshot < 0) {
            return ReadOptions.defaults();
        }
        Snapshot s = snapshots.get(snapshot);
        return s == null ? null : ReadOptions.at(s);
    }

    private void releaseSnapshots() {
        for (Snapshot s : snapshots.values()) {
            s.close();
        }
        snapshots.clear();
    }

    private void closeQuietly() {
        try {
            releaseSnapshots();
            if (db != null) {
                db.close();
            }
        } catch (RuntimeException ignored) {
            // the divergence already being reported matters more
        }
    }

    private static NavigableMap<String, String> range(NavigableMap<String, String> view, String from, String to) {
        if (!from.equals("*") && !to.equals("*")) {
            return from.compareTo(to) >= 0 ? new java.util.TreeMap<>() : view.subMap(from, true, to, false);
        }
        if (!from.equals("*")) {
            return view.tailMap(from, true);
        }
        return to.equals("*") ? view : view.headMap(to, false);
    }

    private static String render(String value) {
        if (value == null) {
            return "absent";
        }
        return value.length() <= 24 ? value : value.substring(0, 16) + "..(" + value.length() + ")";
    }

    private static String renderAll(List<String> values) {
        StringBuilder b = new StringBuilder("[");
        for (String v : values) {
            b.append(render(v)).append(' ');
        }
        return b.append(']').toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.US_ASCII);
    }
}
