package io.bellows.engine.internal.memstore;

import io.bellows.engine.internal.memstore.spi.Segment;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * The memory component of the engine. The engine knows only this interface: the baseline
 * ({@link DefaultMemStore}) and the compacting MemStore plug in behind it.
 *
 * <p>Protocol with the engine:
 * <ol>
 *   <li>{@link #add} is called by one writer thread at a time (the engine's write leader), concurrently
 *       with any number of readers.
 *   <li>When {@link #shouldFlush()} says so and no snapshot is pending, the engine (as write leader) calls
 *       {@link #snapshot()}; the returned segments are written to a table in the background.
 *   <li>After that table is installed in a version, the engine calls {@link #clearSnapshot()}. Readers
 *       that took a {@link #view()} before still read the snapshot's segments.
 * </ol>
 *
 * <p>Thread safety: {@link #view()}, {@link #get} and the size accessors never block.
 */
public interface MemStore extends AutoCloseable {
    /** Adds one entry from arrays of its own; see {@link #add(byte[], int, int, byte[], int, int, long, int)}. */
    default void add(byte[] key, long seq, int kind, byte[] value) {
        add(key, 0, key.length, value, 0, value == null ? 0 : value.length, seq, kind);
    }

    /**
     * Adds one entry whose key and value are slices of the caller's buffers (the write path passes its
     * write batch's buffer, so the MemStore's copy into its cell is the only one). {@code valueBuf} is
     * null exactly for a tombstone. The MemStore copies what it keeps: the caller may reuse the buffers.
     */
    void add(byte[] keyBuf, int keyOff, int keyLen, byte[] valueBuf, int valueOff, int valueLen, long seq, int kind);

    /**
     * Called by the adding thread after all entries of one write group (or of one replayed WAL record)
     * were added, before the group is published. A MemStore that replaces its active segment does it
     * here and only here, so no group is split across segments: a reader's view holds all of a group's
     * entries or none of them.
     */
    default void endWrite() {}

    /**
     * The segments readers must consult, newest first. The returned view is immutable; closing it
     * releases what it pins (memory layouts that recycle chunks need this).
     */
    MemStoreView view();

    /**
     * The segments a point read consults, pinned on the calling thread's {@code stripe} rather than
     * referenced, so concurrent gets share no counter; the same thread ends it with
     * {@link MemStoreView#unpin}.
     */
    MemStoreView pinView(int stripe);

    /**
     * Whether a write group of {@code entries} cells in {@code bytes} (encoded batch bytes) can be added
     * now without waiting for memory. A layout with a bounded pool (OFF_HEAP) says no when it is nearly
     * exhausted; the engine then flushes or waits before logging the group, so an add never fails
     * after its WAL append.
     */
    default boolean hasRoomFor(long bytes, long entries) {
        return true;
    }

    /**
     * Whether a write group of {@code entries} cells in {@code bytes} could be added at all, into an
     * otherwise empty MemStore: false means waiting would never help.
     */
    default boolean canEverHold(long bytes, long entries) {
        return true;
    }

    /** Most bytes of memory the MemStore's layout may hold at once; Long.MAX_VALUE when unbounded. */
    default long memoryLimit() {
        return Long.MAX_VALUE;
    }

    /** Whether the data not yet snapshotted has reached the flush size. */
    boolean shouldFlush();

    boolean hasSnapshot();

    /**
     * Turns everything not yet snapshotted into the snapshot to flush, and returns its segments, newest
     * first. REQUIRES: no snapshot pending.
     */
    List<Segment> snapshot();

    /** Drops the snapshot once its data is in a table recorded by the manifest. */
    void clearSnapshot();

    /** Whether nothing has been added since the last snapshot. */
    boolean isActiveEmpty();

    /** Key and value bytes held (active data and snapshot). */
    long dataSize();

    /** Estimated heap held (active data and snapshot, with index and object overhead). */
    long heapSize();

    /**
     * Reports to {@code member} of a shared MemStore budget the memory held (heap estimate plus off-heap
     * bytes, the snapshot being flushed included) and the part of it not yet snapshotted, both of one state.
     */
    void reportMemory(MemStoreBudget.Member member);

    /**
     * Lowest sequence number still held only in memory (Long.MAX_VALUE if none), snapshot included. A
     * MemStore that drops versions a newer one shadows raises it before any disk flush: every version
     * below it is on disk or shadowed by a newer one held in memory, so WAL records below it are not
     * needed to rebuild the newest state.
     */
    long minSequence();

    /**
     * WAL bytes after which the engine starts a new log even though no disk flush is due, so that logs
     * whose versions the MemStore has dropped can be released (see {@link #minSequence()}). MAX_VALUE:
     * logs roll only with disk flushes, for MemStores that never drop versions.
     */
    default long logRollBytes() {
        return Long.MAX_VALUE;
    }

    /**
     * From now on, count the versions in-memory compaction drops, by key, so that a key's update count
     * (its versions in memory plus those dropped) is known at a flush ({@link #droppedVersions}). Called
     * once at open, before any write, when the compaction scheme plans its flushes by update counts.
     * A MemStore that never drops versions has nothing to count.
     */
    default void countUpdates() {}

    /**
     * The versions in-memory compactions dropped from {@code segments} (a snapshot), by user key; empty
     * when nothing was dropped or {@link #countUpdates()} was not called.
     */
    default Map<ByteBuffer, Integer> droppedVersions(List<Segment> segments) {
        return Map.of();
    }

    /** Sizes by segment kind, pipeline length and policy estimates. */
    MemStoreStats stats();

    @Override
    void close();
}
