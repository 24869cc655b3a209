package io.bellows.engine.internal.table;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine-owned cache of verified table blocks, bounded in bytes. It exists because direct I/O
 * bypasses the OS page cache; one instance is shared by every table of an engine, and several engines
 * share one memory bound through {@link #partition()}s of one cache (a {@code SharedCache}).
 *
 * <p>Blocks are keyed by (owner, file number, block offset): the owner tells engines apart, whose file
 * numbers are only unique per engine. File numbers are never reused, so the blocks of a deleted table,
 * and of a closed engine, simply age out. Built on Caffeine's {@link Cache} with a weigher (W-TinyLFU eviction):
 * its reads record their access in lossy ring buffers instead of allocating a queue node, so a get that
 * hits the cache allocates nothing here (Guava's cache allocated one node per read). Maintenance (and
 * eviction) runs on the calling thread, so the bound holds when a put returns.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class BlockCache {
    private final long capacityBytes;
    /** Per-entry bytes counted on top of a raw page (cache entry, key, array header). */
    private static final int PAGE_OVERHEAD = 96;
    /** Null when caching is disabled. Values are SSTable {@link Block}s or raw pages of other table formats. */
    private final Cache<Key, Object> cache;
    private final AtomicLong usedBytes;
    /** This view's part of every key; each partition has its own. */
    private final long owner;
    private static final AtomicLong OWNERS = new AtomicLong();

    /** @param capacityBytes bound on the bytes of cached blocks; 0 disables caching */
    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity must not be negative, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        AtomicLong used = new AtomicLong();
        this.usedBytes = used;
        this.owner = OWNERS.incrementAndGet();
        this.cache = capacityBytes == 0 ? null
                : Caffeine.newBuilder()
                        .maximumWeight(capacityBytes)
                        .executor(Runnable::run)
                        .<Key, Object>weigher((k, v) -> weight(v))
                        .<Key, Object>removalListener((k, v, cause) -> used.addAndGet(-weight(v)))
                        .build();
    }

    private BlockCache(BlockCache shared) {
        this.capacityBytes = shared.capacityBytes;
        this.usedBytes = shared.usedBytes;
        this.cache = shared.cache;
        this.owner = OWNERS.incrementAndGet();
    }

    /**
     * A view of this cache for another engine: the same memory and bound, shared with every other
     * partition (usedBytes counts them all), and keys of its own.
     */
    public BlockCache partition() {
        return new BlockCache(this);
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes held by cached blocks (block arrays plus a fixed per-entry overhead). */
    public long usedBytes() {
        return usedBytes.get();
    }

    private static int weight(Object v) {
        return v instanceof Block b ? b.weight() : ((byte[]) v).length + PAGE_OVERHEAD;
    }

    Block get(long fileNumber, long blockOffset) {
        return (Block) lookup(fileNumber, blockOffset);
    }

    private Object lookup(long fileNumber, long blockOffset) {
        if (cache == null) {
            return null;
        }
        // A per-thread probe key: a lookup only hashes and compares its key (the cache never stores it),
        // so a get of a cached block allocates nothing.
        Key probe = PROBE.get();
        probe.owner = owner;
        probe.fileNumber = fileNumber;
        probe.blockOffset = blockOffset;
        return cache.getIfPresent(probe);
    }

    void put(long fileNumber, long blockOffset, Block block) {
        insert(fileNumber, blockOffset, block);
    }

    /**
     * A verified page of a table format other than SSTables (LSM_TRIE's HTable buckets), cached by
     * {@link #putPage}; null if absent. The caller must not modify it.
     */
    public byte[] getPage(long fileNumber, long offset) {
        return (byte[]) lookup(fileNumber, offset);
    }

    /** Caches a verified page of another table format; the caller must not modify it afterwards. */
    public void putPage(long fileNumber, long offset, byte[] page) {
        insert(fileNumber, offset, page);
    }

    private void insert(long fileNumber, long offset, Object value) {
        if (cache == null) {
            return;
        }
        // Count before inserting: the removal listener may run (evicting this very entry) inside put.
        usedBytes.addAndGet(weight(value));
        cache.put(new Key(owner, fileNumber, offset), value);
    }

    private static final ThreadLocal<Key> PROBE = ThreadLocal.withInitial(() -> new Key(0, 0, 0));

    /** (owner, file number, offset). Mutable only in a thread's probe key; keys stored in the cache never change. */
    private static final class Key {
        private long owner;
        private long fileNumber;
        private long blockOffset;

        Key(long owner, long fileNumber, long blockOffset) {
            this.owner = owner;
            this.fileNumber = fileNumber;
            this.blockOffset = blockOffset;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.fileNumber == fileNumber && k.blockOffset == blockOffset && k.owner == owner;
        }

        @Override
        public int hashCode() {
            return (Long.hashCode(owner) * 31 + Long.hashCode(fileNumber)) * 31 + Long.hashCode(blockOffset);
        }
    }
}
