package io.bellows.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated by the calling thread, for the tests that bound what a path allocates per operation: call
 * {@link #assumeCounted()} first (a JVM that does not count them skips the test), then take
 * {@link #allocated()} before and after the measured part.
 */
public final class ThreadAllocations {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadAllocations() {}

    /** Skips the calling test unless this JVM counts allocated bytes per thread, and switches the count on. */
    public static void assumeCounted() {
        assumeTrue(MX.isThreadAllocatedMemorySupported(), "this JVM does not count allocated bytes per thread");
        MX.setThreadAllocatedMemoryEnabled(true);
    }

    /** Bytes the calling thread has allocated so far. */
    public static long allocated() {
        return MX.getCurrentThreadAllocatedBytes();
    }
}
