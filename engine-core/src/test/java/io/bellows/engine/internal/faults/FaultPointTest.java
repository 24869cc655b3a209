package io.bellows.engine.internal.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An I/O fault at every point (issue 21, item 3; LevelDB's fault_injection_test, RocksDB's fault
 * injection in db_stress): the {@link FaultWorkload} is run once on each scheme to count its
 * file-system calls, then rerun failing one call at a time, as EIO, as ENOSPC where a call can find the
 * disk full, and as a torn append. After each run, crash images of the store (at the end, at the fault,
 * when the call that saw it returned, at each delete or rename in reaction; see {@link FaultRun}) are
 * reopened on a healthy file system and checked ({@link StoreCheck}): acknowledged writes are there,
 * nothing else appears, nothing leaks. Runs that only show a {@link KnownBugs known bug} are counted
 * apart.
 *
 * <p>By default a seeded sample of {@value #DEFAULT_SAMPLES} points per scheme runs (it covers every
 * kind of call of every thread; the seed is printed). {@code -Dbellows.faults.all=true} runs every
 * point; {@code -Dbellows.faults.samples=N} another sample size; {@code -Dbellows.faults.point=ID} one
 * point (its id, as a failure prints it); {@code -Dbellows.faults.schemes=LEVELED,FLSM} some schemes;
 * {@code -Dbellows.faults.trace=/tmp/points-{scheme}.txt} writes every point of the counting run;
 * {@code -Dbellows.faults.times=N} fails N calls in a row from each point (the retries too).
 * docs/testing.md has the counts and durations.
 */
class FaultPointTest {
    static final int DEFAULT_SAMPLES = 150;
    /** A run that hangs takes minutes to give up; after this many the test stops rather than take hours. */
    private static final int MAX_HANGS = 3;

    @ParameterizedTest
    @EnumSource(value = CompactionStyle.class, names = {"LEVELED", "FLSM", "LSM_TRIE", "TRIAD"})
    @Timeout(value = 12, unit = TimeUnit.HOURS)
    void everyFaultPointKeepsAcknowledgedWritesAndLeaksNothing(CompactionStyle style) {
        String schemes = System.getProperty("bellows.faults.schemes");
        assumeTrue(schemes == null || Arrays.asList(schemes.split(",")).contains(style.name()),
                "-Dbellows.faults.schemes=" + schemes);
        LogCapture log = new LogCapture();
        log.install();
        try {
            run(style, log);
        } finally {
            log.uninstall();
        }
    }

    private static void run(CompactionStyle style, LogCapture log) {
        FaultRun.Result counted = FaultRun.run(style, null, 1, true, log);
        int times = Integer.getInteger("bellows.faults.times", 1);
        String traceFile = System.getProperty("bellows.faults.trace");
        if (traceFile != null) {
            writeTrace(Path.of(traceFile.replace("{scheme}", style.name())), counted.calls());
        }
        assertEquals(List.of(), counted.findings(), "the workload without faults must pass its checks\n" + counted.log());
        List<FaultPoint> all = FaultPoints.enumerate(counted.calls());
        FaultTally tally = new FaultTally(style);
        for (FaultPoint p : choose(style, all, counted.calls())) {
            tally.add(p, FaultRun.run(style, p, times, false, log));
            if (tally.hangs() >= MAX_HANGS) {
                System.out.println("FaultPointTest " + style + ": stopped after " + MAX_HANGS + " runs that hung");
                break;
            }
        }
        System.out.println(tally.summary(counted, all));
        String verdict = tally.verdict();
        if (verdict != null) {
            fail(verdict);
        }
    }

    private static List<FaultPoint> choose(CompactionStyle style, List<FaultPoint> all, List<Call> calls) {
        String one = System.getProperty("bellows.faults.point");
        if (one != null) {
            FaultPoint wanted = FaultPoint.parse(one, null);
            for (FaultPoint p : all) {
                if (p.equals(new FaultPoint(wanted.role(), wanted.op(), wanted.ordinal(), wanted.kind(), p.expected()))) {
                    return List.of(p);
                }
            }
            return fail("no fault point " + one + " on " + style + ": its calls are " + FaultPoints.census(calls));
        }
        if (Boolean.getBoolean("bellows.faults.all")) {
            return all;
        }
        int n = Integer.getInteger("bellows.faults.samples", DEFAULT_SAMPLES);
        return FaultPoints.sample(all, n, TestSeeds.seed("FaultPointTest[" + style + "]"));
    }

    /** Writes the counted calls, one a line with its fault point id, for a reader who wants to see the points. */
    private static void writeTrace(Path file, List<Call> calls) {
        List<String> lines = new ArrayList<>();
        for (FaultPoint p : FaultPoints.enumerate(calls)) {
            lines.add(p.id() + "\t" + p.expected());
        }
        try {
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
