package io.bellows.engine;

import io.bellows.engine.internal.memstore.MemStoreBudget;
import io.bellows.engine.internal.memstore.MemStoreBudgets;

/**
 * One MemStore memory budget for several engines of a process (RocksDB's {@code WriteBufferManager}, as
 * Kafka Streams users bound their stores' memory with it): give the same instance to each engine with
 * {@link EngineOptions.Builder#writeBufferManager}. The engines report the memory their MemStores hold
 * (heap and off-heap, snapshots being flushed included); once the unflushed part passes 7/8 of the
 * budget, or all of it reaches the budget with at least half unflushed, the engine holding the most
 * unflushed memory is flushed, whichever engine is writing. Each engine still flushes on its own at
 * {@link EngineOptions#memstoreSize()}.
 *
 * <p>The budget bounds what MemStores keep, not what is in flight: like RocksDB's manager without
 * {@code allow_stall}, it does not stall writes, so while flushes run the total may pass the budget by
 * the snapshots being written. Sums are kept from reports of changes of at least 1/64 of the budget (at
 * most 64 KiB) per engine. Safe for concurrent use; it needs no closing (its flush thread ends when idle).
 */
public final class WriteBufferManager {
    static {
        MemStoreBudgets.install(m -> m.budget);
    }

    private final MemStoreBudget budget;

    private WriteBufferManager(MemStoreBudget budget) {
        this.budget = budget;
    }

    /** A budget of {@code bufferSizeBytes} for the MemStores of every engine using it: 64 KiB to 1 TiB. */
    public static WriteBufferManager create(long bufferSizeBytes) {
        if (bufferSizeBytes < 64 << 10 || bufferSizeBytes > 1L << 40) {
            throw new IllegalArgumentException("write buffer manager size must be between 64 KiB and 1 TiB, got "
                    + bufferSizeBytes);
        }
        return new WriteBufferManager(new MemStoreBudget(bufferSizeBytes));
    }

    /** The budget, in bytes. */
    public long bufferSizeBytes() {
        return budget.limitBytes();
    }

    /** Memory the MemStores of the engines using this manager hold, as last reported. */
    public long memoryUsageBytes() {
        return budget.usedBytes();
    }

    /** The part of {@link #memoryUsageBytes()} no flush has taken yet. */
    public long unflushedBytes() {
        return budget.unflushedBytes();
    }

    /** Flushes this manager has asked of its engines since it was created. */
    public long flushesRequested() {
        return budget.flushesRequested();
    }

    @Override
    public String toString() {
        return "WriteBufferManager{size=" + bufferSizeBytes() + ", used=" + memoryUsageBytes() + ", unflushed="
                + unflushedBytes() + "}";
    }
}
