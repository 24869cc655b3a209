package io.bellows.engine.internal.faults;

import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Failures {@link FaultPointTest} reports without failing: bugs found, reported, and waiting for a fix
 * in files this test's author could not change. Each has a disabled regression test in
 * {@link FaultPointRegressionTest}; when the fix lands, its entry goes and its test is enabled.
 * {@code -Dbellows.faults.strict=true} fails on them too.
 */
final class KnownBugs {
    /** A known bug: its name (the regression test) and the findings it explains, given the calls failed. */
    record Bug(String name, BiPredicate<List<Call>, Finding> matches) {}

    /* None open: the last one (openWhoseNewManifestCannotBeCreatedThrowsEngineIOException) was fixed. */
    static final List<Bug> ALL = List.of();

    private KnownBugs() {}

    /** The known bug that explains every finding of a run that failed {@code failed}, or null. */
    static Bug explaining(List<Call> failed, List<Finding> findings) {
        if (findings.isEmpty() || Boolean.getBoolean("bellows.faults.strict")) {
            return null;
        }
        for (Bug b : ALL) {
            if (findings.stream().allMatch(f -> b.matches().test(failed, f))) {
                return b;
            }
        }
        return null;
    }
}
