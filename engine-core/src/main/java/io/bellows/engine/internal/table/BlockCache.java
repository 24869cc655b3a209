package io.bellows.engine.internal.table;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine-owned cache of verified table blocks, bounded in bytes. It exists because direct I/O
 * bypasses the OS page cache; one instance may be shared by every table of an engine (or of several
 * engines: file numbers are then only unique per engine, so give each engine its own cache).
 *
 * <p>Blocks are keyed by (file number, block offset). File numbers are never reused, so the blocks of
 * a deleted table simply age out. Built on Guava's {@link Cache} with a weigher; its eviction is
 * approximately LRU per segment.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class BlockCache {
    private final long capacityBytes;
    /** Null when caching is disabled. */
    private final Cache<Key, Block> cache;
    private final AtomicLong usedBytes = new AtomicLong();

    /** @param capacityBytes bound on the bytes of cached blocks; 0 disables caching */
    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity must not be negative, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        this.cache = capacityBytes == 0 ? null
                : CacheBuilder.newBuilder()
                        .maximumWeight(capacityBytes)
                        .<Key, Block>weigher((k, b) -> b.weight())
                        .<Key, Block>removalListener(n -> usedBytes.addAndGet(-n.getValue().weight()))
                        .build();
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes held by cached blocks (block arrays plus a fixed per-entry overhead). */
    public long usedBytes() {
        return usedBytes.get();
    }

    Block get(long fileNumber, long blockOffset) {
        return cache == null ? null : cache.getIfPresent(new Key(fileNumber, blockOffset));
    }

    void put(long fileNumber, long blockOffset, Block block) {
        if (cache == null) {
            return;
        }
        // Count before inserting: the removal listener may run (evicting this very block) inside put.
        usedBytes.addAndGet(block.weight());
        cache.put(new Key(fileNumber, blockOffset), block);
    }

    private record Key(long fileNumber, long blockOffset) {}
}
