package io.bellows.engine.internal.iter;

/**
 * A positioned iterator over internal entries (user key, sequence, kind, value) in internal-key order:
 * user key ascending, sequence descending, movable both ways (LevelDB's Iterator with RocksDB's
 * SeekForPrev). Every source of entries (MemStore segment, table, level, merge of those) implements it,
 * so the read path and compaction compose them freely.
 *
 * <p>Accessors are valid only while {@link #isValid()}. The arrays of {@link #key()} and {@link #value()} are
 * never modified afterwards (by the iterator or by the caller), so a caller may keep them after the
 * iterator moves. {@link #keySlice()} and {@link #valueSlice()} are views valid only until the iterator
 * next moves or closes (the LevelDB and Pebble rule): the hot consumers (merges, flushes, compactions)
 * read entries through them in place, and copy what they keep.
 *
 * <p>Thread safety: one iterator is used by one thread at a time.
 */
public interface InternalIterator extends AutoCloseable {
    boolean isValid();

    void seekToFirst();

    /**
     * Positions at the first entry at or after {@code (userKey, sequence)} in internal order, i.e. the
     * first entry whose user key is greater, or equal with a sequence {@code <= sequence}.
     */
    void seek(byte[] userKey, long sequence);

    /** Positions at the last entry; invalid if there is none. */
    void seekToLast();

    /**
     * Positions at the last entry at or before {@code (userKey, sequence)} in internal order, i.e. the
     * last entry whose user key is smaller, or equal with a sequence {@code >= sequence}. Invalid if none.
     */
    void seekForPrev(byte[] userKey, long sequence);

    /** REQUIRES: {@link #isValid()}. */
    void next();

    /** REQUIRES: {@link #isValid()}. Moves to the entry before; invalid past the first. */
    void prev();

    byte[] key();

    long sequence();

    int kind();

    byte[] value();

    /**
     * The current user key as a view valid until this iterator next moves or closes. A source that
     * holds its entries in arrays re-points one view of its own; this default is the copying adapter
     * for one that does not.
     */
    default Slice keySlice() {
        return Slice.of(key());
    }

    /**
     * The current value (empty for a tombstone) as a view valid until this iterator next moves or
     * closes; see {@link #keySlice()}.
     */
    default Slice valueSlice() {
        return Slice.of(value());
    }

    /** Releases what the iterator pins (blocks, segments). Idempotent. */
    @Override
    void close();
}
