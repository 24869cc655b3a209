package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.util.Bytes;

/**
 * Cuts compaction output at every guard of the output level (committed or not) and at the target
 * file size: each output table then lies inside one guard, so appending it never makes a table
 * straddle a guard, and uncommitted guards can be committed later without rewriting anything.
 */
final class GuardSplitter implements Compaction.Splitter {
    private final byte[][] cuts;
    private final long targetFileSize;
    /** Index of the first cut key above the current table's keys. */
    private int next;

    /** @param cuts guard keys of the output level inside the compaction's range, ascending */
    GuardSplitter(byte[][] cuts, long targetFileSize) {
        this.cuts = cuts;
        this.targetFileSize = targetFileSize;
    }

    @Override
    public void tableStarted(byte[] firstKey) {
        skipTo(firstKey);
    }

    @Override
    public boolean splitBefore(byte[] nextKey, long currentTableBytes) {
        int before = next;
        skipTo(nextKey);
        return next != before || currentTableBytes >= targetFileSize;
    }

    private void skipTo(byte[] key) {
        while (next < cuts.length && Bytes.compare(cuts[next], key) <= 0) {
            next++;
        }
    }
}
