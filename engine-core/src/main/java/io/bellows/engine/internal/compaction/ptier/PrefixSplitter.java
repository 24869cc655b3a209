package io.bellows.engine.internal.compaction.ptier;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.iter.ExactScratch;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;

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
    /**
     * The previous key's prefix is previousPrefix[0, previousLength), none yet when negative: the rule
     * compares prefixes only, so the prefix is all that is kept of a key the compaction hands over as a
     * view.
     */
    private byte[] previousPrefix;
    private int previousLength = -1;
    private long remaining = Long.MAX_VALUE;
    private final ExactScratch scratch = new ExactScratch();
    private final Slice keyArg = new Slice();

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
        remember(keyArg.set(firstKey), prefixes.length(keyArg, scratch));
    }

    @Override
    public boolean splitBefore(byte[] nextKey, long currentTableBytes) {
        return splitBefore(keyArg.set(nextKey), currentTableBytes);
    }

    @Override
    public boolean splitBefore(Slice nextKey, long currentTableBytes) {
        int n = prefixes.length(nextKey, scratch);
        boolean prefixChanged = previousLength < 0 || previousLength != n || !Arrays.equals(previousPrefix, 0, n,
                nextKey.array(), nextKey.offset(), nextKey.offset() + n);
        remember(nextKey, n);
        if (currentTableBytes >= HARD_LIMIT_FACTOR * threshold) {
            return true;
        }
        return prefixChanged && currentTableBytes >= threshold && remaining >= threshold;
    }

    private void remember(Slice key, int prefixLength) {
        if (previousPrefix == null || previousPrefix.length < prefixLength) {
            previousPrefix = new byte[Math.max(prefixLength, previousPrefix == null ? 16 : 2 * previousPrefix.length)];
        }
        System.arraycopy(key.array(), key.offset(), previousPrefix, 0, prefixLength);
        previousLength = prefixLength;
    }
}
