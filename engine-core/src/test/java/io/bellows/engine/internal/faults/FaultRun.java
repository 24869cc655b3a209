package io.bellows.engine.internal.faults;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.internal.db.EngineImpl;
import io.bellows.engine.internal.faults.Finding.Kind;
import io.bellows.engine.internal.faults.WriteModel.Crash;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One run of the {@link FaultWorkload} on a crashable in-memory file system, with at most one call
 * failed, followed by the checks: the workload's own (reads agree with the model, only
 * EngineIOException is thrown, nothing hangs), then reopens of crash images on a healthy file system,
 * each checked by {@link StoreCheck} against what had been acknowledged when it was taken:
 *
 * <ul>
 *   <li>at the end: the store as the run left it (the engine closed, or abandoned if close failed);
 *   <li>at the fault: the moment the failing call throws (a torn append's part written);
 *   <li>when the call that saw the fault returned: an acknowledgement it gave must hold at once, not
 *       only once later syncs have covered it;
 *   <li>at each delete or rename until the call after that one returns (so the background work the
 *       fault set off is included): what the engine removes in reaction (outputs of a failed edit, an
 *       old manifest) must not be needed. Background sweeps race with that reaction, so every such
 *       change is an image, not only the first.
 * </ul>
 *
 * The first three are checked after a process crash (every byte handed to the OS kept) and after a
 * machine crash (only synced bytes and directory entries kept), the last after a process crash.
 */
final class FaultRun {
    /** How long the workload may take before the run is reported as a hang. */
    private static final long WORKLOAD_MILLIS = 120_000;
    private static final long CLOSE_MILLIS = 30_000;
    /** At most this many deletes and renames after the fault are imaged. */
    private static final int MAX_CHANGE_IMAGES = 6;
    private static final String AT_CHANGE = "at a delete or rename after the fault";

    /** What a run did and found. */
    record Result(List<Finding> findings, List<Call> calls, List<Call> injected, int apiErrors, int images, long nanos,
            String log) {}

    private FaultRun() {}

    /**
     * The options of every run of {@code style}: {@link EngineConfigs#small}, one compaction thread, no
     * timed WAL sync, whose calls would land at times that differ from run to run (ASYNC writes still
     * reach the OS at once, which is what they promise), and for LSM_TRIE a fixed hash seed (with a
     * random one every run routes keys to other containers).
     */
    static EngineOptions options(CompactionStyle style) {
        EngineOptions.Builder b = EngineConfigs.small(style, InMemoryCompaction.NONE).backgroundThreads(2)
                .walSyncInterval(Duration.ofHours(1));
        if (style == CompactionStyle.LSM_TRIE) {
            b.compaction(EngineConfigs.smallTrie().hashSeed(0x5EED_FA17L).build());
        }
        return b.build();
    }

    /**
     * Runs the workload on {@code style}, failing {@code point} (null: none) and the {@code times - 1}
     * calls of its role and operation after it, recording every call if {@code trace}; {@code log} (may
     * be null) holds what the engine logged.
     */
    static Result run(CompactionStyle style, FaultPoint point, int times, boolean trace, LogCapture log) {
        long start = System.nanoTime();
        if (log != null) {
            log.reset();
        }
        EngineOptions options = options(style);
        boolean cursors = style != CompactionStyle.LSM_TRIE;
        CrashableFileSystem mem = new CrashableFileSystem();
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        fs.trace(trace);
        WriteModel model = new WriteModel();
        CrashImages images = new CrashImages(mem, model);
        List<Finding> workloadFindings = new ArrayList<>();
        FaultDriver driver = new FaultDriver(options, fs, mem, model, workloadFindings, cursors, Math.max(1, times));
        if (point != null) {
            fs.inject(point.fault(times));
            watch(fs, driver, images);
        }
        List<Finding> findings = new ArrayList<>();
        Thread client = new Thread(() -> {
            try {
                FaultWorkload.run(driver);
            } catch (FaultDriver.HangException e) {
                workloadFindings.add(new Finding(Kind.HANG, e.getMessage()));
            } catch (RuntimeException | Error e) {
                workloadFindings.add(new Finding(Kind.UNEXPECTED_EXCEPTION, "the workload failed: " + e));
            }
        }, "faults-client");
        client.setDaemon(true);
        client.start();
        if (join(client, WORKLOAD_MILLIS)) {
            findings.addAll(workloadFindings);
            boolean closedAll = driver.engine() == null && !driver.abandonedAny();
            closeLeftOpen(driver.engine(), findings);
            if (closedAll && !fs.openFiles().isEmpty()) {
                findings.add(new Finding(Kind.LEAKED_HANDLE, "still open after every engine closed: " + fs.openFiles()));
            }
        } else {
            findings.add(new Finding(Kind.HANG, "the workload did not finish in " + WORKLOAD_MILLIS / 1000 + " s: "
                    + stack(client)));
        }
        images.take("at the end", true);
        for (CrashImages.Image image : images.all()) {
            if (image.alsoMachineCrash()) {
                StoreCheck.check(options, image.store().crash(), image.model(), Crash.MACHINE, image.when(), cursors,
                        findings);
            }
            StoreCheck.check(options, image.store(), image.model(), Crash.PROCESS, image.when(), cursors, findings);
        }
        return new Result(findings, fs.calls(), fs.injectedCalls(), driver.apiErrors(), images.all().size(),
                System.nanoTime() - start, log == null || findings.isEmpty() ? "" : log.text());
    }

    /** Takes the images of the moments around the fault (see the class comment). */
    private static void watch(FaultInjectingFileSystem fs, FaultDriver driver, CrashImages images) {
        AtomicInteger callsSinceFault = new AtomicInteger();
        fs.onInject(call -> {
            if (images.count("at the fault") == 0) {
                images.take("at the fault", true);
            }
        });
        driver.afterCall(() -> {
            if (fs.injected() > 0 && callsSinceFault.getAndIncrement() == 0) {
                images.take("when the call that saw the fault returned", true);
            }
        });
        fs.onDirectoryChange(call -> {
            synchronized (images) {
                int n = images.count(AT_CHANGE);
                if (fs.injected() > 0 && callsSinceFault.get() < 2 && n < MAX_CHANGE_IMAGES) {
                    images.take(AT_CHANGE + " (" + (n + 1) + ": " + call + ")", false);
                }
            }
        });
    }

    /** Closes an engine the workload left open (it stopped early); abandons it if close hangs. */
    private static void closeLeftOpen(EngineImpl db, List<Finding> findings) {
        if (db == null) {
            return;
        }
        Thread closer = new Thread(() -> {
            try {
                db.close();
            } catch (RuntimeException e) {
                // abandoned, as a crashed process's engine
            }
        }, "faults-closer");
        closer.setDaemon(true);
        closer.start();
        if (!join(closer, CLOSE_MILLIS)) {
            findings.add(new Finding(Kind.HANG, "close did not return in " + CLOSE_MILLIS / 1000 + " s: " + stack(closer)));
        }
    }

    private static boolean join(Thread t, long millis) {
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !t.isAlive();
    }

    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("\n    at ").append(e);
        }
        return b.toString();
    }
}
