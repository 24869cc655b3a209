package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.iter.Slice;
import java.util.Arrays;

/**
 * Decides which versions of a key survive a flush or compaction. Live snapshots cut the sequence
 * space into stripes; a reader at any sequence sees the newest version in its stripe or below, so of
 * the versions of one key only the newest of each stripe can ever be read. A tombstone in the oldest
 * stripe can go as well when no deeper table may hold the key (it hides nothing any reader could see).
 *
 * <p>Fed entries in internal-key order; not thread-safe.
 */
public final class VersionPruner {
    private final long[] snapshots;
    private final Compaction.BaseLevelTest baseLevel;
    /** The user key of the versions being decided, currentKey[0, currentLength); no key yet when negative. */
    private byte[] currentKey = new byte[32];
    private int currentLength = -1;
    private final Slice wrapped = new Slice();
    private int lastStripe;
    private long dropped;

    /**
     * @param snapshots live snapshot sequences, ascending
     * @param baseLevel tells whether tombstones of a key may be dropped; null never drops them
     */
    public VersionPruner(long[] snapshots, Compaction.BaseLevelTest baseLevel) {
        this.snapshots = snapshots;
        this.baseLevel = baseLevel;
    }

    /** Whether the entry must be written out. */
    public boolean keep(byte[] key, long seq, int kind) {
        return keep(wrapped.set(key), seq, kind);
    }

    /** Whether the entry must be written out; {@code key} need stay valid only during the call. */
    public boolean keep(Slice key, long seq, int kind) {
        int stripe = stripe(seq);
        if (currentLength < 0 || !key.contentEquals(currentKey, currentLength)) {
            currentKey = key.copyInto(currentKey);
            currentLength = key.length();
            lastStripe = stripe;
        } else if (stripe == lastStripe) {
            dropped++;
            return false;
        } else {
            lastStripe = stripe;
        }
        if (kind == InternalKeys.KIND_DELETE && stripe == 0 && baseLevel != null && baseLevel.isBaseLevelFor(key)) {
            dropped++;
            return false;
        }
        return true;
    }

    /** Entries dropped so far. */
    public long dropped() {
        return dropped;
    }

    /** Index of the first snapshot that can see {@code seq}; snapshots.length for "only the latest". */
    private int stripe(long seq) {
        int i = Arrays.binarySearch(snapshots, seq);
        return i >= 0 ? i : -i - 1;
    }
}
