package io.bellows.engine.internal.db;

import java.util.Map;
import java.util.TreeMap;

/** The sequences of live snapshots (a multiset), which compactions must keep readable. */
final class SnapshotList {
    private final TreeMap<Long, Integer> live = new TreeMap<>();

    synchronized void add(long seq) {
        live.merge(seq, 1, Integer::sum);
    }

    synchronized void remove(long seq) {
        live.computeIfPresent(seq, (k, n) -> n == 1 ? null : n - 1);
    }

    /** Distinct live snapshot sequences, ascending. */
    synchronized long[] sequences() {
        long[] out = new long[live.size()];
        int i = 0;
        for (Map.Entry<Long, Integer> e : live.entrySet()) {
            out[i++] = e.getKey();
        }
        return out;
    }

    synchronized int size() {
        int n = 0;
        for (int c : live.values()) {
            n += c;
        }
        return n;
    }
}
