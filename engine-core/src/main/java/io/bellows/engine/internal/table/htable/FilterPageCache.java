package io.bellows.engine.internal.table.htable;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

/**
 * The memory budget for BloomCluster pages (TrieOptions.filterCacheSize): verified page runs
 * keyed by (table number, run index), bounded in bytes. Lookups that find their run here read no
 * filter block from disk. Table numbers are never reused, so runs of deleted tables age out.
 *
 * <p>Guava's cache (least recently used), not Caffeine's as the block cache: the clusters a compaction
 * writes are put here as written, before any get has read them, and Caffeine's admission policy refused
 * such pages once the cache was full (0.16 filter-block reads per get at factor 64 against 0.000). A
 * lookup uses a per-thread probe key (the cache never stores it); a hit still costs Guava's recency node.
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
        cache = capacityBytes == 0 ? null
                : CacheBuilder.newBuilder().maximumWeight(capacityBytes)
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
