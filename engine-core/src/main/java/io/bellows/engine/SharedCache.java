package io.bellows.engine;

import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.table.SharedCaches;

/**
 * A block cache that several engines of a process share, bounded in bytes as one (RocksDB's shared
 * {@code Cache}): give the same instance to each engine with {@link EngineOptions.Builder#sharedCache}, and
 * the blocks of all of them compete for one budget, instead of each engine holding its own
 * {@link EngineOptions#blockCacheSize()}. Engines never see each other's blocks; a closed engine's blocks
 * age out. Safe for concurrent use; it needs no closing.
 */
public final class SharedCache {
    static {
        SharedCaches.install(c -> c.cache);
    }

    private final BlockCache cache;

    private SharedCache(BlockCache cache) {
        this.cache = cache;
    }

    /** A cache of at most {@code capacityBytes}: 1 byte to 1 TiB. */
    public static SharedCache create(long capacityBytes) {
        if (capacityBytes < 1 || capacityBytes > 1L << 40) {
            throw new IllegalArgumentException("shared cache capacity must be between 1 byte and 1 TiB, got "
                    + capacityBytes);
        }
        return new SharedCache(new BlockCache(capacityBytes));
    }

    /** The bound on the bytes of cached blocks of every engine using this cache. */
    public long capacityBytes() {
        return cache.capacityBytes();
    }

    /** Bytes held now by the blocks of every engine using this cache. */
    public long usedBytes() {
        return cache.usedBytes();
    }

    @Override
    public String toString() {
        return "SharedCache{capacity=" + capacityBytes() + ", used=" + usedBytes() + "}";
    }
}
