package io.bellows.engine.internal.memstore.spi;

import com.carrotsearch.hppc.IntIntHashMap;
import java.util.Arrays;

/**
 * Which versions an in-memory compaction keeps. Shared by every memory layout so that they all drop
 * exactly the same versions.
 *
 * <p>The read points are the live snapshots plus {@code published}, the last sequence readers could
 * see when the snapshots were listed: a snapshot taken later reads at or above it. A reader at sequence
 * s sees, of each key, the newest version at or below s; so of the versions between two consecutive
 * read points only the newest can be read. Versions above {@code published} may belong to a write group
 * not yet visible, and a later snapshot can land between any two of them, so all are kept. A tombstone
 * is dropped only when a newer version of the same stretch shadows it: the newest version of a key is
 * always kept, so a tombstone still hides what it deletes on disk.
 *
 * <p>Not thread-safe: one compaction feeds one instance its cells in internal-key order.
 */
public final class Retention {
    private final long[] points;
    private final long published;
    private int previousStripe = -1;
    private boolean started;
    /** Versions dropped after each kept cell (by its index among the kept), or null when not counted. */
    private final IntIntHashMap dropsAfterKept;
    private int kept = -1;

    /**
     * @param snapshots live snapshot sequences, ascending
     * @param published the last sequence readers could see, read before {@code snapshots}
     */
    public Retention(long[] snapshots, long published) {
        this(snapshots, published, false);
    }

    /**
     * As above; with {@code countDrops}, also records how many versions were dropped right after each
     * kept cell ({@link #dropsAfterKept}). A key's first cell is always kept, so every dropped version
     * is an older version of the key of the kept cell it follows.
     */
    public Retention(long[] snapshots, long published, boolean countDrops) {
        this.dropsAfterKept = countDrops ? new IntIntHashMap() : null;
        long[] p = Arrays.copyOf(snapshots, snapshots.length + 1);
        p[snapshots.length] = published;
        Arrays.sort(p);
        this.points = p;
        this.published = published;
    }

    /**
     * Whether to keep the next cell in internal-key order.
     *
     * @param sameKey whether it has the user key of the cell before it (false for the first cell)
     */
    public boolean keep(boolean sameKey, long sequence) {
        int stripe = stripe(sequence);
        boolean keep = !started || !sameKey || stripe != previousStripe || sequence > published;
        started = true;
        previousStripe = stripe;
        if (keep) {
            kept++;
        } else if (dropsAfterKept != null) {
            dropsAfterKept.addTo(kept, 1);
        }
        return keep;
    }

    /**
     * Index among the kept cells (in order) to the number of versions dropped after it; absent means
     * none. Null unless counting was asked for.
     */
    public IntIntHashMap dropsAfterKept() {
        return dropsAfterKept;
    }

    /** Index of the first read point at or above {@code seq}: versions with equal index share a stretch. */
    private int stripe(long seq) {
        int i = Arrays.binarySearch(points, seq);
        return i >= 0 ? i : -i - 1;
    }
}
