package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.iter.Slice;

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
    private final Slice wrapped = new Slice();

    /** @param cuts guard keys of the output level inside the compaction's range, ascending */
    GuardSplitter(byte[][] cuts, long targetFileSize) {
        this.cuts = cuts;
        this.targetFileSize = targetFileSize;
    }

    @Override
    public void tableStarted(byte[] firstKey) {
        skipTo(wrapped.set(firstKey));
    }

    @Override
    public boolean splitBefore(byte[] nextKey, long currentTableBytes) {
        return splitBefore(wrapped.set(nextKey), currentTableBytes);
    }

    @Override
    public boolean splitBefore(Slice nextKey, long currentTableBytes) {
        int before = next;
        skipTo(nextKey);
        return next != before || currentTableBytes >= targetFileSize;
    }

    private void skipTo(Slice key) {
        while (next < cuts.length && key.compareTo(cuts[next]) >= 0) {
            next++;
        }
    }
}
