package io.bellows.engine.internal.faults;

import java.util.List;
import java.util.function.Predicate;

/**
 * Failures {@link FaultPointTest} reports without failing: bugs found, reported, and waiting for a fix
 * in files this test's author could not change. Each has a disabled regression test in
 * {@link FaultPointRegressionTest}; when the fix lands, its entry goes and its test is enabled.
 * {@code -Dbellows.faults.strict=true} fails on them too.
 */
final class KnownBugs {
    /** A known bug: its name (the regression test) and the findings it explains. */
    record Bug(String name, Predicate<Finding> matches) {}

    static final List<Bug> ALL = List.of(
            new Bug("openWhoseNewManifestCannotBeCreatedThrowsEngineIOException",
                    f -> f.kind() == Finding.Kind.UNEXPECTED_EXCEPTION && f.detail().startsWith("open threw ")
                            && f.detail().contains("NullPointerException") && f.detail().contains("LogWriter.close()")));

    private KnownBugs() {}

    /** The known bug that explains every finding of a run, or null. */
    static Bug explaining(List<Finding> findings) {
        if (findings.isEmpty() || Boolean.getBoolean("bellows.faults.strict")) {
            return null;
        }
        for (Bug b : ALL) {
            if (findings.stream().allMatch(b.matches())) {
                return b;
            }
        }
        return null;
    }
}
