package io.bellows.engine.internal.compaction.flsm;

/**
 * Counts consecutive cursor seeks with no write between them (paper §4.2, "Seek-Based Compaction"):
 * every {@code threshold}-th one marks the key it sought, and the scheme then compacts the guard with
 * the most tables under that key. A write (a new latest sequence) restarts the count.
 *
 * <p>Thread safety: called by readers without locks. Fields are volatile and updates may race; a
 * lost count only delays a compaction, which is all this heuristic can cost.
 */
final class SeekTracker {
    private final int threshold;
    private volatile long sequence = -1;
    private volatile int count;
    private volatile byte[] dueKey;

    /** @param threshold seeks per trigger; 0 disables seek-based compaction */
    SeekTracker(int threshold) {
        this.threshold = threshold;
    }

    /** Returns true when this seek makes a compaction due. */
    boolean onSeek(byte[] key, long lastSequence) {
        if (threshold == 0) {
            return false;
        }
        int n;
        if (sequence != lastSequence) {
            sequence = lastSequence;
            n = 1;
        } else {
            n = count + 1;
        }
        count = n;
        if (n % threshold != 0) {
            return false;
        }
        dueKey = key.clone();
        return true;
    }

    /** The key of the last trigger not yet taken, or null; clears it. */
    byte[] takeDue() {
        byte[] k = dueKey;
        dueKey = null;
        return k;
    }
}
