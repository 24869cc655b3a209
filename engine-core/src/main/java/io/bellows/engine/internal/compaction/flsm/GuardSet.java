package io.bellows.engine.internal.compaction.flsm;

import io.bellows.engine.internal.util.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Every guard the store knows, as the manifest's guard records built it. A guard is a key with the
 * shallowest level it guards ({@code top}); it is committed at a suffix of levels
 * {@code committedFrom..last} (committing goes deepest first, which keeps the guards of level i a
 * subset of those of level i+1) and uncommitted at {@code top..committedFrom-1}. Uncommitted guards
 * only cut compaction output; reads and table placement use committed ones.
 *
 * <p>Not thread-safe: the scheme guards it with its own monitor.
 */
final class GuardSet {
    /** One guard key. Mutable only through {@link GuardSet#apply}. */
    static final class Guard {
        final byte[] key;
        int top;
        /** Id recorded as the placement of tables in it; 0 until first committed. */
        long id;
        /** Shallowest committed level; {@code numLevels} while committed nowhere. */
        int committedFrom;
        /**
         * Order of selection (or of the last lowering of {@code top}) in this process: a compaction picked
         * before it does not cut at it.
         */
        long epoch;

        Guard(byte[] key, int top, int committedFrom, long epoch) {
            this.key = key;
            this.top = top;
            this.committedFrom = committedFrom;
            this.epoch = epoch;
        }

        boolean committedAt(int level) {
            return committedFrom <= level;
        }
    }

    private final int numLevels;
    private final TreeMap<byte[], Guard> known = new TreeMap<>(Bytes.COMPARATOR);
    /** Guards not yet committed at their top level. */
    private final TreeMap<byte[], Guard> uncommitted = new TreeMap<>(Bytes.COMPARATOR);
    private long nextId = 1;
    private long epoch;
    /** Per level, bumped whenever the guards committed there (keys or ids) change. */
    private final long[] generation;
    /**
     * Per level, the guards committed there. Building a level's index walked every known guard instead: a
     * 20M-key store at scale factor 64 knew 38,800 guards, 7,000 of them committed at the level above the last,
     * and that walk after every compaction was a sixth of FLSM's compaction thread.
     */
    private final List<TreeMap<byte[], Guard>> committed;

    GuardSet(int numLevels) {
        this.numLevels = numLevels;
        this.generation = new long[numLevels];
        this.committed = new ArrayList<>(numLevels);
        for (int level = 0; level < numLevels; level++) {
            committed.add(new TreeMap<>(Bytes.COMPARATOR));
        }
    }

    /** A number that changes whenever the guards committed at {@code level} change. */
    long generation(int level) {
        return generation[level];
    }

    /** Records that the guards committed at levels [from, to) changed. */
    private void changed(int from, int to) {
        for (int level = Math.max(0, from); level < Math.min(to, numLevels); level++) {
            generation[level]++;
        }
    }

    /** Applies one guard record from the manifest or from an edit just logged. */
    void apply(byte[] record) {
        GuardRecords.Decoded r = GuardRecords.decode(record);
        switch (r.kind()) {
            case GuardRecords.SELECT:
                // Top level numLevels: a guard retired at every level, kept so that its key is not chosen again.
                if (r.level() <= numLevels) {
                    select(r.key(), r.level());
                }
                break;
            case GuardRecords.COMMIT:
                if (r.level() < numLevels) {
                    Guard g = known.get(r.key());
                    if (g == null) {
                        g = select(r.key(), r.level());
                    }
                    int from = Math.min(g.committedFrom, r.level());
                    // A new id changes every level the guard is committed at; a lower level adds the guard there.
                    changed(from, g.id == r.id() ? g.committedFrom : numLevels);
                    for (int level = from; level < g.committedFrom; level++) {
                        committed.get(level).put(g.key, g);
                    }
                    g.id = r.id();
                    g.committedFrom = from;
                    nextId = Math.max(nextId, r.id() + 1);
                    if (g.committedFrom <= g.top) {
                        uncommitted.remove(g.key);
                    }
                }
                break;
            default:
                Guard removed = known.remove(r.key());
                if (removed != null) {
                    changed(removed.committedFrom, numLevels);
                    for (int level = removed.committedFrom; level < numLevels; level++) {
                        committed.get(level).remove(removed.key);
                    }
                }
                uncommitted.remove(r.key());
                break;
        }
    }

    private Guard select(byte[] key, int top) {
        Guard g = known.get(key);
        if (g == null) {
            g = new Guard(key, top, numLevels, ++epoch);
            known.put(key, g);
            if (top < numLevels) {
                uncommitted.put(key, g);
            }
        } else if (top < g.top) {
            g.top = top;
            g.epoch = ++epoch;
            uncommitted.put(key, g);
        }
        return g;
    }

    /** Records that rebuild this set from nothing. */
    List<byte[]> snapshot() {
        List<byte[]> out = new ArrayList<>(known.size() * 2);
        for (Guard g : known.values()) {
            out.add(GuardRecords.select(g.top, g.key));
            if (g.committedFrom < numLevels) {
                out.add(GuardRecords.commit(g.committedFrom, g.id, g.key));
            }
        }
        return out;
    }

    Guard get(byte[] key) {
        return known.get(key);
    }

    /** All guards in key order. */
    NavigableMap<byte[], Guard> all() {
        return known;
    }

    /** The guards committed at {@code level}, in key order. */
    NavigableMap<byte[], Guard> committed(int level) {
        return committed.get(level);
    }

    /** Guards not committed at their top level, in key order. */
    NavigableMap<byte[], Guard> uncommitted() {
        return uncommitted;
    }

    /** Keys of the guards (committed or not) of {@code level} strictly inside (lo, hi); null = unbounded. */
    byte[][] cutKeys(int level, byte[] lo, byte[] hi) {
        NavigableMap<byte[], Guard> range = known;
        if (lo != null && hi != null) {
            if (Bytes.compare(lo, hi) >= 0) {
                return new byte[0][];
            }
            range = known.subMap(lo, false, hi, false);
        } else if (lo != null) {
            range = known.tailMap(lo, false);
        } else if (hi != null) {
            range = known.headMap(hi, false);
        }
        List<byte[]> out = new ArrayList<>();
        for (Guard g : range.values()) {
            if (g.top <= level) {
                out.add(g.key);
            }
        }
        return out.toArray(new byte[0][]);
    }

    long allocateId() {
        return nextId++;
    }

    /** Guards selected so far in this process; guards with a larger epoch were selected later. */
    long epoch() {
        return epoch;
    }
}
