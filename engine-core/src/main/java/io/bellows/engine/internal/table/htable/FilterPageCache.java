package io.bellows.engine.internal.table.htable;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The memory budget for BloomCluster pages (TrieOptions.filterCacheSize): verified page runs
 * keyed by (table number, run index), bounded in bytes. Lookups that find their run here read no
 * filter block from disk. Table numbers are never reused, so runs of deleted tables age out.
 *
 * <p>A CLOCK cache of our own, because a get looks up one run per trie level and neither library cache
 * fits that path. Caffeine's admission policy refused the clusters a compaction writes through (they are
 * put here before any get has read them), so once the cache was full the deepest runs read 0.16 filter
 * blocks per get again instead of 0.000. Guava's LRU admits every page but costs each hit a segment
 * lock attempt, a recency-queue node and the queue's draining: a third of an LSM_TRIE get's Java CPU in a JFR
 * profile at scale factor 64 (docs/benchmarks.md, "LSM_TRIE gets without the filter cache's lock").
 * Here a hit is a lookup in a concurrent map and, if the run's bit is clear, one plain write; puts
 * take a lock and sweep the clock hand, which clears bits and evicts runs not read since its last pass.
 * Room is made before a run goes in and a new run starts with its bit set, so a run put is there for the
 * next get and is passed over once by the hand before it can go: a table's runs written through one after
 * another all stay while they fit, even when every run before them had been read.
 *
 * <p>Thread safety: safe for concurrent use; gets take no lock.
 */
public final class FilterPageCache {
    /** Charged per run beyond its bytes: the run's key, node, map entry and clock slot. */
    static final int OVERHEAD = 96;
    private static final ThreadLocal<Key> PROBE = ThreadLocal.withInitial(() -> new Key(0, 0));
    private final long capacity;
    /** Null when the budget is 0. */
    private final ConcurrentHashMap<Key, Run> runs;
    /** The clock, guarded by this object: every cached run once, in no particular order. */
    private Run[] clock = new Run[64];
    private int size;
    private int hand;
    private long weight;

    public FilterPageCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("filter cache capacity must not be negative, got " + capacityBytes);
        }
        capacity = capacityBytes;
        runs = capacityBytes == 0 ? null : new ConcurrentHashMap<>();
    }

    ClusterRun get(long table, int run) {
        if (runs == null) {
            return null;
        }
        Key probe = PROBE.get();
        probe.table = table;
        probe.run = run;
        Run r = runs.get(probe);
        if (r == null) {
            return null;
        }
        if (!r.referenced) {
            // A racy hint: a lost write only costs the run an earlier eviction.
            r.referenced = true;
        }
        return r.run;
    }

    void put(long table, int run, ClusterRun page) {
        if (runs == null) {
            return;
        }
        Run r = new Run(new Key(table, run), page);
        synchronized (this) {
            Run old = runs.get(r.key);
            if (old != null) {
                remove(old.slot);
            }
            if (r.weight() > capacity) {
                // Would evict every other run and then itself.
                return;
            }
            // Room is made before the run goes in, so it is never its own put's victim.
            makeRoom(r.weight());
            if (size == clock.length) {
                clock = Arrays.copyOf(clock, 2 * size);
            }
            r.slot = size;
            clock[size++] = r;
            runs.put(r.key, r);
            weight += r.weight();
        }
    }

    /** Bytes charged for the runs cached now. */
    synchronized long weight() {
        return weight;
    }

    /** Runs cached now. */
    synchronized int size() {
        return size;
    }

    /** Whether run {@code run} of {@code table} is cached, without counting as a read of it (for tests). */
    boolean contains(long table, int run) {
        return runs != null && runs.containsKey(new Key(table, run));
    }

    /**
     * Turns the hand until {@code bytes} more fit: a run read (or put) since the hand last passed loses its
     * bit and stays; one not read is dropped. The clock's last run moves into the freed slot and the hand
     * steps past it, so a run moved keeps the turn it was owed. Gets that set bits again meanwhile only
     * lengthen the sweep: each step clears a bit or drops a run.
     */
    private void makeRoom(long bytes) {
        while (weight + bytes > capacity && size > 0) {
            if (hand >= size) {
                hand = 0;
            }
            Run v = clock[hand];
            if (v.referenced) {
                v.referenced = false;
            } else {
                remove(hand);
            }
            hand++;
        }
    }

    /** Drops the run in {@code slot}; the clock's last run takes the slot. */
    private void remove(int slot) {
        Run v = clock[slot];
        runs.remove(v.key, v);
        weight -= v.weight();
        Run last = clock[--size];
        clock[size] = null;
        if (last != v) {
            last.slot = slot;
            clock[slot] = last;
        }
    }

    /** A cached run; {@link #slot} is guarded by the cache. */
    private static final class Run {
        final Key key;
        final ClusterRun run;
        boolean referenced = true;
        int slot;

        Run(Key key, ClusterRun run) {
            this.key = key;
            this.run = run;
        }

        long weight() {
            return run.bytes() + OVERHEAD;
        }
    }

    /** (table, run). Mutable only in a thread's probe key; keys stored in the cache never change. */
    private static final class Key {
        private long table;
        private int run;

        Key(long table, int run) {
            this.table = table;
            this.run = run;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.table == table && k.run == run;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(table * 0x9E3779B97F4A7C15L + run);
        }
    }
}
