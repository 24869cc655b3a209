package io.bellows.engine.internal.faults;

import io.bellows.engine.internal.io.FaultInjectingFileSystem.Call;
import io.bellows.engine.internal.io.FaultInjectingFileSystem.Op;
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

    /*
     * The NullPointerException's message is not matched: once the JIT has compiled the throwing code it
     * may throw one without a message (OmitStackTraceInFastThrow).
     */
    static final List<Bug> ALL = List.of(
            new Bug("openWhoseNewManifestCannotBeCreatedThrowsEngineIOException",
                    (failed, f) -> failed.stream().anyMatch(c -> (c.op() == Op.CREATE || c.op() == Op.APPEND)
                            && c.file().startsWith("MANIFEST-"))
                            && (f.kind() == Finding.Kind.UNEXPECTED_EXCEPTION
                                    && f.detail().startsWith("open threw java.lang.NullPointerException")
                                    || f.kind() == Finding.Kind.LEAKED_HANDLE && f.detail().matches(".*\\[MANIFEST-\\d+]"))));

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
