package io.bellows.engine.internal.table;

import com.carrotsearch.hppc.LongObjectHashMap;

/**
 * The last data block a batch of lookups read from each table. Keys looked up in ascending order meet
 * each table's blocks in ascending order, so remembering one block per table reads every block at most
 * once per batch, whether or not the block cache keeps it (a multiGet that does not fill the cache, or a
 * cache too small for the batch). One batch, one thread.
 */
public final class BlockMemo {
    private final LongObjectHashMap<Remembered> last = new LongObjectHashMap<>();

    private record Remembered(long offset, Block block) {}

    /** The block of {@code table} at {@code offset} if it is the one remembered, else null. */
    Block get(long table, long offset) {
        Remembered r = last.get(table);
        return r != null && r.offset() == offset ? r.block() : null;
    }

    void remember(long table, long offset, Block block) {
        last.put(table, new Remembered(offset, block));
    }
}
