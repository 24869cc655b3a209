package io.bellows.engine.internal.table;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import java.io.IOException;

/**
 * An open table of any format, as the table cache holds it: a point lookup, a full iterator, and close.
 * Schemes that need more of their own format ask the cache for the concrete reader by class.
 */
public interface OpenTable extends AutoCloseable {
    /**
     * The newest entry of {@code key} with a sequence at or below {@code seq}, into {@code out}; false
     * if the table has none. {@code fillCache} says whether blocks read enter a cache.
     */
    boolean get(byte[] key, long seq, boolean fillCache, Lookup out) throws IOException;

    /** Every entry in internal-key order. */
    InternalIterator iterator(boolean fillCache) throws IOException;

    /** The scheme metadata stored with the table (docs/architecture.md, "Per-table scheme metadata"), or null. */
    default byte[] schemeMetadata() {
        return null;
    }

    /**
     * The WAL files whose records this table's entries point into (a CL-table's logs), which must live as
     * long as the table; none for a table that holds its entries itself.
     */
    default long[] logs() {
        return new long[0];
    }

    /**
     * Bytes of the user keys and values the table holds, every version (a tombstone counts its key), from
     * what the table recorded when it was written: the denominator of space amplification. -1 when the
     * format does not record it (a CL-table, whose values stay in the logs).
     */
    default long userDataBytes() {
        return -1;
    }

    /** Tombstones the table holds, as recorded when it was written; -1 when the format does not record them. */
    default long deletions() {
        return -1;
    }

    /** Closes the file; reads after close fail. */
    @Override
    void close();
}
