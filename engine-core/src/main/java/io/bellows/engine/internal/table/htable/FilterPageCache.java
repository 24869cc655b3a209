package io.bellows.engine.internal.table.htable;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

/**
 * The memory budget for BloomCluster pages (TrieOptions.filterCacheSize): verified page runs
 * keyed by (table number, run index), bounded in bytes. Lookups that find their run here read no
 * filter block from disk. Table numbers are never reused, so runs of deleted tables age out.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class FilterPageCache {
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
        return cache == null ? null : cache.getIfPresent(new Key(table, run));
    }

    void put(long table, int run, byte[] page) {
        if (cache != null) {
            cache.put(new Key(table, run), page);
        }
    }

    private record Key(long table, int run) {}
}
