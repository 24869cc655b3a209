package io.bellows.engine.internal.db;

import java.util.ArrayDeque;

/**
 * The closed WAL files recovery would still replay, each with the highest sequence it holds, and the
 * rule that releases them early (Accordion's WAL truncation): a log whose every record is below the
 * oldest sequence the MemStore holds is no longer needed.
 *
 * <p>Why that is safe: each record of such a log is in a table, or is a version that in-memory
 * compaction dropped because a newer version of the same key, still in memory and so logged in a later
 * log, shadows it (a tombstone too: the newest version of a key is never dropped). The later logs are
 * forced (closed ones when rolled, the current one before a release), so replaying them rebuilds the
 * newest state, and no snapshot survives a crash to want the older versions. The logs
 * kept are all newer than the last flush, so replay never puts a version below one already on disk.
 *
 * <p>Thread safety: guarded by the engine lock.
 */
final class LogRetention {
    /** {number, highest sequence, 1 if forced to its end}, oldest first. */
    private final ArrayDeque<long[]> closed = new ArrayDeque<>();

    /**
     * Log {@code number}, holding sequences up to {@code maxSequence}, was closed by a roll; unless
     * {@code forced}, a crash may lose its ASYNC tail.
     */
    void closed(long number, long maxSequence, boolean forced) {
        closed.addLast(new long[] {number, maxSequence, forced ? 1 : 0});
    }

    /**
     * The first log recovery needs when the MemStore's oldest sequence is {@code minSequence} and
     * {@code current} is the log being written. A log not forced is needed, and so is every log after
     * it: the versions shadowing what the older logs hold may be in its tail a crash can lose.
     */
    long firstNeeded(long minSequence, long current) {
        for (long[] log : closed) {
            if (log[1] >= minSequence || log[2] == 0) {
                return log[0];
            }
        }
        return current;
    }

    /** Whether every closed log recovery would still replay was forced to its end when rolled. */
    boolean allForced() {
        for (long[] log : closed) {
            if (log[2] == 0) {
                return false;
            }
        }
        return true;
    }

    /** The closed logs recovery would still replay that were forced to their end when rolled, oldest first. */
    long[] forcedLogs() {
        return closed.stream().filter(log -> log[2] == 1).mapToLong(log -> log[0]).toArray();
    }

    /** Forgets logs below {@code logNumber}, which the manifest no longer needs. */
    void prune(long logNumber) {
        while (!closed.isEmpty() && closed.peekFirst()[0] < logNumber) {
            closed.pollFirst();
        }
    }
}
