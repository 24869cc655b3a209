package io.bellows.engine.internal.compaction.triad;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TRIAD-MEM's settings and running figures: makes each flush's {@link HotKeys} plan and counts what the
 * plans kept in memory. The plans are made one at a time (by the write leader, under the engine lock).
 */
final class HotKeyStats {
    private final double hotFraction;
    private final int flushThreshold;
    private final long maxCarriedBytes;
    private HotKeys last;
    private long plans;
    private long hotKeys;
    private long keptAll;
    private long abandoned;

    HotKeyStats(double hotFraction, int flushThreshold, long maxCarriedBytes) {
        this.hotFraction = hotFraction;
        this.flushThreshold = flushThreshold;
        this.maxCarriedBytes = maxCarriedBytes;
    }

    /** The plan of a flush of a snapshot of {@code entries} entries: K = ceil(hotFraction × entries). */
    synchronized HotKeys plan(long entries) {
        if (last != null && !last.wasAbandoned()) {
            // The previous flush's plan is complete: its MemStore switch is over.
            last.decide();
        }
        count();
        last = new HotKeys((int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(hotFraction * entries)), flushThreshold,
                maxCarriedBytes);
        return last;
    }

    /** Adds the last plan's outcome to the figures, once it is complete. */
    private void count() {
        if (last != null && (last.decided() || last.wasAbandoned())) {
            plans++;
            if (last.wasAbandoned()) {
                abandoned++;
            } else if (last.keepsAll()) {
                keptAll++;
            } else {
                hotKeys += last.hotKeys();
            }
            last = null;
        }
    }

    synchronized Map<String, Double> figures() {
        count();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("mem.flushes", (double) plans);
        m.put("mem.hot.keys", (double) hotKeys);
        m.put("mem.kept.all", (double) keptAll);
        m.put("mem.abandoned", (double) abandoned);
        return m;
    }
}
