package io.bellows.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * This JVM's cumulative GC time and process CPU time; a workload's figures are the difference of two
 * readings. The engine runs in this JVM, so its background threads, JIT and GC all count.
 */
record ProcessMetrics(long gcMillis, long cpuNanos) {
    static ProcessMetrics now() {
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        return new ProcessMetrics(gc, processCpuNanos());
    }

    private static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return Math.max(0, ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime());
        }
        return 0;
    }

    ProcessMetrics minus(ProcessMetrics earlier) {
        return new ProcessMetrics(gcMillis - earlier.gcMillis, cpuNanos - earlier.cpuNanos);
    }
}
