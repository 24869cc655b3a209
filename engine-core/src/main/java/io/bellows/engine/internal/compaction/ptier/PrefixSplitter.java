package io.bellows.engine.internal.compaction.ptier;

import io.bellows.engine.internal.compaction.Compaction;

/**
 * PTierDB's prefix-based data split (§III.B.1): an output table is cut only where the key prefix
 * changes, and only once it holds T_s bytes while at least T_s bytes of input are still to be written;
 * otherwise it keeps growing, so no table is left smaller than T_s at the end of a merge. The paper is
 * silent on a single prefix holding far more than T_s; Bellows then also cuts between two keys of one
 * prefix at {@link #HARD_LIMIT_FACTOR} times T_s, so a table stays bounded whatever the prefix rule.
 */
final class PrefixSplitter implements Compaction.Splitter {
    static final int HARD_LIMIT_FACTOR = 4;

    private final Prefixes prefixes;
    private final long threshold;
    private byte[] previousKey;
    private long remaining = Long.MAX_VALUE;

    PrefixSplitter(Prefixes prefixes, long threshold) {
        this.prefixes = prefixes;
        this.threshold = threshold;
    }

    @Override
    public void inputRemaining(long bytes) {
        remaining = bytes;
    }

    @Override
    public void tableStarted(byte[] firstKey) {
        previousKey = firstKey;
    }

    @Override
    public boolean splitBefore(byte[] nextKey, long currentTableBytes) {
        boolean prefixChanged = previousKey == null || !prefixes.same(previousKey, nextKey);
        previousKey = nextKey;
        if (currentTableBytes >= HARD_LIMIT_FACTOR * threshold) {
            return true;
        }
        return prefixChanged && currentTableBytes >= threshold && remaining >= threshold;
    }
}
