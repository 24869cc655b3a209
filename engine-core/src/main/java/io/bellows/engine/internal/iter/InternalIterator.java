package io.bellows.engine.internal.iter;

/**
 * A positioned iterator over internal entries (user key, sequence, kind, value) in internal-key order:
 * user key ascending, sequence descending. Every source of entries (MemStore segment, table, level,
 * merge of those) implements it, so the read path and compaction compose them freely.
 *
 * <p>Accessors are valid only while {@link #isValid()}; returned arrays are never modified afterwards (by the
 * iterator or by the caller), so a caller may keep them after the iterator moves.
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

    void next();

    byte[] key();

    long sequence();

    int kind();

    byte[] value();

    /** Releases what the iterator pins (blocks, segments). Idempotent. */
    @Override
    void close();
}
