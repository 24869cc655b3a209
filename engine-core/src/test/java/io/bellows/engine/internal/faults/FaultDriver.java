package io.bellows.engine.internal.faults;

import io.bellows.engine.Cursor;
import io.bellows.engine.Durability;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.db.EngineProbe;
import io.bellows.engine.internal.faults.Finding.Kind;
import io.bellows.engine.internal.faults.WriteModel.Crash;
import io.bellows.engine.internal.faults.WriteModel.Outcome;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a workload's calls against an engine on a (faulty) file system and records, for each, whether
 * it returned or threw: writes into the {@link WriteModel}, reads checked against it at once. After
 * every call it waits until the engine's flushes and compactions have settled, so that each engine
 * thread makes the same file-system calls in the same order on every run (the fault points are
 * counted per thread). An open that fails is retried, as a user would, once more than the calls failed
 * in a row.
 *
 * <p>Not thread-safe: one workload thread drives it.
 */
final class FaultDriver {
    static final Path DIR = Path.of("/db");
    /** How long background work may take to settle after a call (a failed flush is retried after 100 ms). */
    private static final long SETTLE_NANOS = 20_000_000_000L;

    /** Thrown to stop a workload whose engine never settled. */
    static final class HangException extends RuntimeException {
        HangException(String message) {
            super(message);
        }
    }

    private final EngineOptions options;
    private final FaultInjectingFileSystem fs;
    private final CrashableFileSystem mem;
    private final WriteModel model;
    private final List<Finding> findings;
    private final boolean cursors;
    private final int openAttempts;
    private EngineImpl db;
    private int apiErrors;
    private boolean abandoned;
    private Runnable afterCall;

    /**
     * Drives engines on {@code fs}, which fails calls to {@code mem}, up to {@code faultsInARow} calls in a
     * row (an open is tried once more than that).
     */
    FaultDriver(EngineOptions options, FaultInjectingFileSystem fs, CrashableFileSystem mem, WriteModel model,
            List<Finding> findings, boolean cursors, int faultsInARow) {
        this.options = options;
        this.fs = fs;
        this.mem = mem;
        this.model = model;
        this.findings = findings;
        this.cursors = cursors;
        this.openAttempts = faultsInARow + 1;
    }

    /** Runs {@code r} on the workload thread each time an API call has returned or thrown. */
    void afterCall(Runnable r) {
        afterCall = r;
    }

    /** API calls that threw (the engine reporting the fault). */
    int apiErrors() {
        return apiErrors;
    }

    /** The engine left open by the workload (null if none): the caller closes or abandons it. */
    EngineImpl engine() {
        return db;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    void open() {
        for (int attempt = 1; attempt <= openAttempts && db == null; attempt++) {
            try {
                db = EngineImpl.open(DIR, options, fs);
            } catch (RuntimeException e) {
                failed("open", e);
                if (attempt == openAttempts) {
                    findings.add(new Finding(Kind.OPEN_RETRY_FAILED, "open attempt " + attempt + " threw " + e));
                }
            }
        }
        afterCall();
        verifyRecovered();
    }

    /**
     * Reads every key after an open, with faults paused (these reads are the check, not the workload, and
     * make no fault points): what recovery rebuilt must agree with the model at once, before later
     * overwrites could hide a write it dropped.
     */
    private void verifyRecovered() {
        if (db == null) {
            return;
        }
        fs.pause(true);
        try {
            for (int i = 0; i < FaultWorkload.KEYS; i++) {
                String key = FaultWorkload.key(i);
                byte[] v = db.get(utf8(key));
                String value = v == null ? null : new String(v, StandardCharsets.UTF_8);
                if (!model.allowedLive(key).contains(value)) {
                    findings.add(new Finding(Kind.WRONG_READ, "after an open " + key + " = " + WriteModel.abbreviate(value)
                            + " (history: " + model.describe(key) + ")"));
                }
                model.observedAfterCrash(key, value);
            }
        } catch (RuntimeException e) {
            findings.add(new Finding(Kind.UNEXPECTED_EXCEPTION, "reading every key after an open threw " + e));
        } finally {
            fs.pause(false);
        }
    }

    /** Closes the engine; if close throws, the engine is abandoned as a crashed process's would be. */
    void close() {
        if (db == null) {
            return;
        }
        EngineImpl closing = db;
        db = null;
        try {
            closing.close();
        } catch (RuntimeException e) {
            failed("close", e);
            abandoned = true;
        }
        afterCall();
    }

    /** Whether an engine was abandoned after its close threw (its files may stay open). */
    boolean abandonedAny() {
        return abandoned;
    }

    void reopen() {
        close();
        open();
    }

    /**
     * A machine crash now, keeping of each file's unsynced tail a prefix drawn from {@code seed} (torn
     * writes), then an open on what it left, which recovers. The old engine is closed with faults paused
     * and its disk then replaced by the crash image, which is the same as losing it with the machine.
     */
    void crashAndReopen(long seed) {
        CrashableFileSystem image = mem.crash(seed);
        if (db != null) {
            fs.pause(true);
            try {
                db.close();
            } catch (RuntimeException e) {
                // The machine is gone; what close did is discarded with it, but its files may stay open.
                abandoned = true;
            } finally {
                fs.pause(false);
                db = null;
            }
        }
        mem.replaceWith(image);
        model.crashed(Crash.MACHINE);
        open();
    }

    /** Writes a batch: each entry a key and its new value ({@code null} deletes). */
    void write(List<Map.Entry<String, String>> entries, Durability durability) {
        if (db == null) {
            return;
        }
        WriteBatch batch = new WriteBatch();
        for (Map.Entry<String, String> e : entries) {
            if (e.getValue() == null) {
                batch.delete(utf8(e.getKey()));
            } else {
                batch.put(utf8(e.getKey()), utf8(e.getValue()));
            }
        }
        WriteModel.Call call = model.begin(entries);
        Outcome outcome = durability == Durability.SYNC ? Outcome.SYNC_ACK : Outcome.ASYNC_ACK;
        try {
            db.write(batch, WriteOptions.of(durability));
        } catch (RuntimeException e) {
            failed("write", e);
            outcome = Outcome.FAILED;
        }
        model.end(call, outcome);
        afterCall();
    }

    void get(String key) {
        if (db == null) {
            return;
        }
        byte[] v;
        try {
            v = db.get(utf8(key));
        } catch (RuntimeException e) {
            failed("get " + key, e);
            afterCall();
            return;
        }
        checkLive(key, v == null ? null : new String(v, StandardCharsets.UTF_8));
        afterCall();
    }

    /** A full forward scan (schemes with cursors): every key it shows and every key it must show. */
    void scan() {
        if (db == null || !cursors) {
            return;
        }
        List<String[]> seen = new ArrayList<>();
        try (Cursor c = db.cursor(ReadOptions.defaults())) {
            for (c.seekToFirst(); c.isValid(); c.next()) {
                seen.add(new String[] {new String(c.key(), StandardCharsets.UTF_8), new String(c.value(), StandardCharsets.UTF_8)});
            }
        } catch (RuntimeException e) {
            failed("scan", e);
            afterCall();
            return;
        }
        Set<String> shown = new HashSet<>();
        for (String[] kv : seen) {
            shown.add(kv[0]);
            checkLive(kv[0], kv[1]);
        }
        for (String key : model.keys()) {
            if (!shown.contains(key) && !model.allowedLive(key).contains(null)) {
                findings.add(new Finding(Kind.WRONG_READ, "scan skipped " + key + " (history: " + model.describe(key) + ")"));
            }
        }
        afterCall();
    }

    void flush() {
        if (db == null) {
            return;
        }
        try {
            db.flush();
        } catch (RuntimeException e) {
            failed("flush", e);
        }
        afterCall();
    }

    void compactRange() {
        if (db == null) {
            return;
        }
        try {
            db.compactRange(null, null);
        } catch (RuntimeException e) {
            failed("compactRange", e);
        }
        afterCall();
    }

    private void checkLive(String key, String value) {
        Set<String> allowed = model.allowedLive(key);
        if (!allowed.contains(value)) {
            findings.add(new Finding(Kind.WRONG_READ, "get " + key + " returned " + WriteModel.abbreviate(value)
                    + " (history: " + model.describe(key) + ")"));
        }
    }

    private void failed(String call, RuntimeException e) {
        apiErrors++;
        if (!(e instanceof EngineIOException)) {
            findings.add(new Finding(Kind.UNEXPECTED_EXCEPTION, call + " threw " + e));
        }
    }

    /**
     * After every call: tells the listener (which may take a crash image of the moment the call returned,
     * its outcome in the model), then waits until no flush is pending and no compaction runs or is due.
     */
    private void afterCall() {
        if (afterCall != null) {
            afterCall.run();
        }
        if (db == null) {
            return;
        }
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (!EngineProbe.settled(db)) {
            if (System.nanoTime() - deadline > 0) {
                throw new HangException("background work did not settle in " + SETTLE_NANOS / 1_000_000_000 + " s");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HangException("interrupted while waiting for background work");
            }
        }
    }
}
