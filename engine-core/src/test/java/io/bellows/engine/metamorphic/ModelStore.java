package io.bellows.engine.metamorphic;

import io.bellows.engine.Durability;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the store must hold: the latest state, each live snapshot's state, and since the last point at
 * which everything was durable (a flush, a compaction, an open), every write with its durability, so a
 * crash check can say which values a key may have after a machine crash.
 */
final class ModelStore {
    private final TreeMap<String, String> state = new TreeMap<>();
    private final Map<Integer, TreeMap<String, String>> snapshots = new HashMap<>();
    /** The state when everything was last durable. */
    private TreeMap<String, String> barrier = new TreeMap<>();
    private final List<Write> sinceBarrier = new ArrayList<>();
    /** Index in {@link #sinceBarrier} of the last SYNC write (which forced every logged write before it). */
    private int lastSync = -1;
    private boolean unloggedSinceBarrier;

    private record Write(String key, String value, boolean logged) {}

    void write(List<Op.Put> writes, Durability durability) {
        for (Op.Put p : writes) {
            if (p.value() == null) {
                state.remove(p.key());
            } else {
                state.put(p.key(), p.value());
            }
            sinceBarrier.add(new Write(p.key(), p.value(), durability != Durability.NONE));
        }
        if (durability == Durability.SYNC) {
            lastSync = sinceBarrier.size() - 1;
        }
        unloggedSinceBarrier |= durability == Durability.NONE;
    }

    /** The view a read sees: the latest state, a live snapshot's, or null for a snapshot that is not live. */
    NavigableMap<String, String> view(int snapshot) {
        return snapshot < 0 ? state : snapshots.get(snapshot);
    }

    boolean takeSnapshot(int id) {
        if (snapshots.containsKey(id)) {
            return false;
        }
        snapshots.put(id, new TreeMap<>(state));
        return true;
    }

    boolean releaseSnapshot(int id) {
        return snapshots.remove(id) != null;
    }

    Set<Integer> snapshotIds() {
        return snapshots.keySet();
    }

    void dropSnapshots() {
        snapshots.clear();
    }

    /** Everything written so far is durable now (a flush or compaction returned, or the store reopened). */
    void barrier() {
        barrier = new TreeMap<>(state);
        sinceBarrier.clear();
        lastSync = -1;
        unloggedSinceBarrier = false;
    }

    boolean unloggedSinceBarrier() {
        return unloggedSinceBarrier;
    }

    /** Every key the store may hold after a crash. */
    Set<String> crashKeys() {
        Set<String> keys = new TreeSet<>(barrier.keySet());
        for (Write w : sinceBarrier) {
            keys.add(w.key());
        }
        return keys;
    }

    /**
     * The values (null: absent) {@code key} may have after a machine crash now: its value at the barrier
     * or any later one, but no older than a logged write of it that the last SYNC write forced.
     */
    List<String> crashValues(String key) {
        List<String> values = new ArrayList<>();
        values.add(barrier.get(key));
        int from = 0;
        for (int i = 0; i < sinceBarrier.size(); i++) {
            Write w = sinceBarrier.get(i);
            if (!w.key().equals(key)) {
                continue;
            }
            values.add(w.value());
            if (i <= lastSync) {
                // Durable only if logged: an unlogged write before the sync may vanish, leaving older values.
                from = w.logged() ? values.size() - 1 : from;
            }
        }
        return values.subList(from, values.size());
    }
}
