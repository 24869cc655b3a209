package io.bellows.engine.internal.compaction;

import java.util.List;

/**
 * A scheme's plan for one MemStore flush: which keys stay in memory instead of being written (TRIAD-MEM's
 * hot keys). The engine shows it every key of the snapshot once, in key order, with the key's update
 * count since the last flush and the bytes of the versions a flush would write of it ({@link #offer});
 * then asks, again in key order, which keys it carries ({@link #carries}). A carried key's versions (as
 * the flush would write them: the newest of each snapshot stripe, with their sequences) go into the
 * new MemStore and are logged again in the new WAL before the flush starts; the flush leaves them out.
 *
 * <p>Made by {@link CompactionScheme#planFlush} on the write leader under the engine lock; {@link #carries}
 * is then also called from the flush thread (for each key it writes), so the plan must not change after
 * the first call of {@link #carries}.
 */
public interface FlushPlan {
    /**
     * A key of the snapshot. {@code updates} counts its writes since the last flush: versions in memory,
     * versions in-memory compaction dropped, not counting versions carried over by the last flush.
     */
    void offer(byte[] key, int updates, long bytes);

    /** Whether the flush leaves out {@code key}, keeping its versions in memory. */
    boolean carries(byte[] key);

    /**
     * The keys carried, in key order, once every key was offered: lets the engine seek to them instead of
     * reading the whole snapshot again. Null (the default) when the plan only answers key by key, e.g.
     * because it carries nearly everything.
     */
    default List<byte[]> carriedKeys() {
        return null;
    }

    /**
     * The engine did not carry the plan out (the snapshot holds unlogged writes or a log that was not
     * forced, no room in a bounded MemStore, or the WAL failed): the flush writes every key. It may come
     * before any key was offered. Default: nothing.
     */
    default void abandoned() {}
}
