package io.bellows.engine.offheap;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.internal.memstore.spi.MslabChunks;
import io.bellows.engine.internal.memstore.spi.SegmentLayout;
import io.bellows.engine.internal.memstore.spi.SegmentLayoutProvider;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Registers {@link MemoryLayout#OFF_HEAP} with engine-core (META-INF/services).
 *
 * <p>Allocator: every OFF_HEAP MemStore in the process draws from one {@link PooledByteBufAllocator}
 * of Bellows' own (per arena chunk size) with one direct arena and no thread-local caches, not
 * netty's default allocator. Netty 4.2 made the adaptive allocator the
 * default; it pools buffers only up to 1 MiB (an eighth of its largest chunk) and serves larger ones
 * one-off, so our 2 MiB chunks would each be a fresh allocation. The pooled allocator serves them
 * from its 4 MiB arena chunks (larger MSLAB chunks get a matching arena chunk size). Thread caches are
 * off because chunks are taken by the writer and returned by flush, compaction and reader threads,
 * and a per-thread cache would strand them. An instance of Bellows' own keeps the MemStores' memory
 * apart from the application's netty traffic and independent of {@code -Dio.netty.allocator.type}.
 * It is shared by all engines because a pooled allocator keeps its emptied arena chunks: one per
 * engine would strand an arena's worth of memory at every reopen.
 *
 * <p>{@code -Dbellows.offheap.checkedRelease=true} is a debugging aid: chunks come unpooled and go back
 * to the allocator the moment their last reference goes, so any read after release fails loudly
 * ({@code IllegalReferenceCountException}) instead of reading a recycled chunk. The engine-offheap
 * tests use it to hunt for use-after-release.
 */
public final class OffHeapLayoutProvider implements SegmentLayoutProvider {
    /** How long a writer waits for a flush to return chunks before failing. */
    static final long WRITER_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);
    static final String CHECKED_RELEASE = "bellows.offheap.checkedRelease";
    private static final int PAGE_SIZE = 8192;
    private static final int DEFAULT_MAX_ORDER = 9;
    private static final ConcurrentMap<Integer, ByteBufAllocator> ALLOCATORS = new ConcurrentHashMap<>();

    @Override
    public MemoryLayout layout() {
        return MemoryLayout.OFF_HEAP;
    }

    @Override
    public SegmentLayout create(EngineOptions options, boolean policyCompacts) {
        return new OffHeapLayout(pool(options, policyCompacts));
    }

    static ChunkPool pool(EngineOptions options, boolean policyCompacts) {
        int chunkSize = dataChunkSize(options, policyCompacts);
        int indexChunkSize = Math.max(MslabChunks.MIN_CHUNK, Integer.highestOneBit(chunkSize / 8));
        long limit = options.offHeapLimit() > 0 ? options.offHeapLimit()
                : EngineOptions.defaultOffHeapLimit(options.memstoreSize());
        boolean checked = Boolean.getBoolean(CHECKED_RELEASE);
        ByteBufAllocator allocator;
        String name;
        if (checked) {
            allocator = new UnpooledByteBufAllocator(true);
            name = "unpooled (checkedRelease)";
        } else {
            allocator = ALLOCATORS.computeIfAbsent(maxOrder(chunkSize),
                    order -> new PooledByteBufAllocator(true, 0, 1, PAGE_SIZE, order, 0, 0, false));
            name = "pooled";
        }
        // Keep a full MemStore's worth of chunks for reuse: the next MemStore refills at once.
        long maxFree = checked ? 0 : Math.min(limit, options.memstoreSize() + (options.memstoreSize() >> 2));
        return new ChunkPool(allocator, name, chunkSize, indexChunkSize, limit, maxFree, WRITER_WAIT_NANOS);
    }

    /**
     * The MSLAB chunk size, rounded down to a power of two: netty rounds other sizes up to its size
     * classes and packs them loosely into its arena chunks, so direct memory would exceed what the
     * pool counts against the limit (1.25-1.56x measured for the 335,544- and 1,342,177-byte chunks
     * of 64 MiB and 256 MiB MemStores; 1.00x for powers of two).
     */
    static int dataChunkSize(EngineOptions options, boolean policyCompacts) {
        return Integer.highestOneBit(MslabChunks.size(options, policyCompacts));
    }

    /** The arena chunk (page size << maxOrder) must hold at least one MSLAB chunk to pool it. */
    static int maxOrder(int chunkSize) {
        int order = DEFAULT_MAX_ORDER;
        while ((PAGE_SIZE << order) < chunkSize && order < 14) {
            order++;
        }
        return order;
    }
}
