package io.bellows.engine.internal.table.htable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The memory budget for BloomCluster pages (TrieOptions.filterCacheSize): verified page runs
 * keyed by (table number, run index), bounded in bytes. Lookups that find their run here read no
 * filter block from disk. Table numbers are never reused, so runs of deleted tables age out.
 *
 * <p>Caffeine, as the block cache, with a per-thread probe key: a get looks up one run per trie level,
 * and neither the lookup nor the hit allocates (Guava's cache made a key and a queue node per read).
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class FilterPageCache {
    private static final ThreadLocal<Key> PROBE = ThreadLocal.withInitial(() -> new Key(0, 0));
    /** Null when the budget is 0. */
    private final Cache<Key, byte[]> cache;

    public FilterPageCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("filter cache capacity must not be negative, got " + capacityBytes);
        }
        // Maintenance on the calling thread, so the bound holds when a put returns.
        cache = capacityBytes == 0 ? null
                : Caffeine.newBuilder().maximumWeight(capacityBytes).executor(Runnable::run)
                        .<Key, byte[]>weigher((k, v) -> v.length + 64).build();
    }

    byte[] get(long table, int run) {
        if (cache == null) {
            return null;
        }
        Key probe = PROBE.get();
        probe.table = table;
        probe.run = run;
        return cache.getIfPresent(probe);
    }

    void put(long table, int run, byte[] page) {
        if (cache != null) {
            cache.put(new Key(table, run), page);
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
