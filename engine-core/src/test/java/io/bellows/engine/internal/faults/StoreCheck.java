package io.bellows.engine.internal.faults;

import io.bellows.engine.Cursor;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.db.EngineProbe;
import io.bellows.engine.internal.faults.Finding.Kind;
import io.bellows.engine.internal.faults.WriteModel.Crash;
import io.bellows.engine.internal.io.FileSystem;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.Version;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reopens a store on a healthy file system after a fault run and checks it: every key holds a value
 * the {@link WriteModel} allows after that kind of crash (so acknowledged writes are there and nothing
 * else appears), a scan agrees, and once the open's sweep and any compaction have run the directory
 * holds exactly what the live state references: LOCK, CURRENT, the current manifest, the live WAL and
 * the tables of the current version.
 */
final class StoreCheck {
    private static final Path DIR = FaultDriver.DIR;
    private static final long SWEEP_NANOS = 10_000_000_000L;

    private StoreCheck() {}

    /** Checks the store on {@code fs}, a crash image taken {@code when} (for messages). */
    static void check(EngineOptions options, FileSystem fs, WriteModel model, Crash crash, String when, boolean cursors,
            List<Finding> findings) {
        String after = "after a " + crash.name().toLowerCase() + " crash " + when;
        EngineImpl db;
        try {
            db = EngineImpl.open(DIR, options, fs);
        } catch (RuntimeException e) {
            findings.add(new Finding(Kind.REOPEN_FAILED, after + ": " + e));
            return;
        }
        try {
            checkKeys(db, model, crash, after, findings);
            if (cursors) {
                checkScan(db, model, crash, after, findings);
            }
            checkFiles(db, fs, after, findings);
        } catch (RuntimeException e) {
            findings.add(new Finding(Kind.REOPEN_FAILED, after + ": reading the reopened store threw " + e));
        } finally {
            try {
                db.close();
            } catch (RuntimeException e) {
                findings.add(new Finding(Kind.UNEXPECTED_EXCEPTION, after + ": close on a healthy file system threw " + e));
            }
        }
    }

    private static void checkKeys(EngineImpl db, WriteModel model, Crash crash, String after, List<Finding> findings) {
        for (int i = 0; i < FaultWorkload.KEYS; i++) {
            String key = FaultWorkload.key(i);
            byte[] v = db.get(FaultDriver.utf8(key));
            checkValue(model, crash, key, v == null ? null : new String(v, StandardCharsets.UTF_8), after, findings);
        }
    }

    private static void checkScan(EngineImpl db, WriteModel model, Crash crash, String after, List<Finding> findings) {
        Set<String> shown = new HashSet<>();
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                String key = new String(c.key(), StandardCharsets.UTF_8);
                shown.add(key);
                checkValue(model, crash, key, new String(c.value(), StandardCharsets.UTF_8), after + " (scan)", findings);
            }
        }
        for (String key : model.keys()) {
            if (!shown.contains(key) && !model.allowed(key, crash).contains(null)) {
                findings.add(new Finding(Kind.LOST_ACKED, after + " (scan): " + key + " missing (history: "
                        + model.describe(key) + ")"));
            }
        }
    }

    private static void checkValue(WriteModel model, Crash crash, String key, String value, String after,
            List<Finding> findings) {
        Set<String> allowed = model.allowed(key, crash);
        if (allowed.contains(value)) {
            return;
        }
        findings.add(new Finding(model.wasWritten(key, value) ? Kind.LOST_ACKED : Kind.GARBAGE, after + ": " + key + " = "
                + WriteModel.abbreviate(value) + ", allowed " + abbreviate(allowed) + " (history: " + model.describe(key) + ")"));
    }

    private static String abbreviate(Set<String> values) {
        StringBuilder b = new StringBuilder("{");
        for (String v : values) {
            b.append(b.length() > 1 ? ", " : "").append(WriteModel.abbreviate(v));
        }
        return b.append('}').toString();
    }

    /** Waits for background work and sweeps, then compares the directory with the live state. */
    private static void checkFiles(EngineImpl db, FileSystem fs, String after, List<Finding> findings) {
        long deadline = System.nanoTime() + SWEEP_NANOS;
        Set<String> expected;
        Set<String> actual;
        while (true) {
            while (!EngineProbe.settled(db) && System.nanoTime() - deadline < 0) {
                pause();
            }
            expected = liveFiles(db);
            try {
                actual = new TreeSet<>(fs.list(DIR));
            } catch (IOException e) {
                throw new AssertionError("listing a healthy file system failed", e);
            }
            actual.remove(FileNames.LOCK);
            if (actual.equals(expected) || System.nanoTime() - deadline > 0) {
                break;
            }
            pause();
        }
        Set<String> leaked = new TreeSet<>(actual);
        leaked.removeAll(expected);
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(actual);
        if (!leaked.isEmpty()) {
            findings.add(new Finding(Kind.LEAKED_FILE, after + ": " + leaked + " left beside the live files " + expected));
        }
        if (!missing.isEmpty()) {
            findings.add(new Finding(Kind.MISSING_FILE, after + ": " + missing + " referenced but absent"));
        }
    }

    /**
     * CURRENT, the current manifest, the live WAL (the log number recovery recorded), every live table, and the
     * older logs live tables still read (TRIAD's CL-tables).
     */
    private static Set<String> liveFiles(EngineImpl db) {
        VersionSet versions = EngineProbe.versions(db);
        Set<String> out = new TreeSet<>();
        for (long log : EngineProbe.liveLogs(db)) {
            out.add(FileNames.log(DIR, log).getFileName().toString());
        }
        out.add(FileNames.CURRENT);
        out.add(FileNames.manifest(DIR, versions.manifestNumber()).getFileName().toString());
        out.add(FileNames.log(DIR, versions.logNumber()).getFileName().toString());
        Version v = versions.acquireCurrent();
        try {
            for (int level = 0; level < v.numLevels(); level++) {
                for (FileMeta f : v.files(level)) {
                    out.add(FileNames.table(DIR, f.number).getFileName().toString());
                }
            }
        } finally {
            v.release();
        }
        return out;
    }

    private static void pause() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
