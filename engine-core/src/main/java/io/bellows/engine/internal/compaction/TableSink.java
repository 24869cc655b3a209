package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Where a flush or compaction writes its surviving entries (fed in internal-key order). The scheme
 * supplies it, so a scheme may use its own table format; the engine only finishes it, or abandons it
 * after a failure, and releases the numbers it created from the pending outputs.
 */
public interface TableSink {
    /**
     * Adds an entry given as arrays; a DELETE's {@code value} may be null.
     *
     * @throws NullPointerException for a null key or a PUT without value (see {@link #checkArrays})
     */
    void add(byte[] key, long seq, int kind, byte[] value) throws IOException;

    /**
     * What {@link #add(byte[], long, int, byte[])} refuses, for sinks that forward arrays to their view path
     * (where a null value reads as an empty one): a null key, or a PUT without value.
     */
    static void checkArrays(byte[] key, int kind, byte[] value) {
        Objects.requireNonNull(key, "key");
        if (kind == InternalKeys.KIND_PUT) {
            Objects.requireNonNull(value, "value of a PUT");
        }
    }

    /**
     * As {@link #add(byte[], long, int, byte[])} for views valid during the call (an iterator's
     * {@link io.bellows.engine.internal.iter.InternalIterator#keySlice}); this default copies them out, a
     * sink that writes them at once does not.
     */
    default void add(Slice key, long seq, int kind, Slice value) throws IOException {
        add(key.copy(), seq, kind, value.copy());
    }

    /**
     * Finishes the table being written, if any, so the next entry starts a new one (a compaction of
     * several merge groups calls it between groups). A sink that cannot cut on demand refuses.
     */
    default void endTable() throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot end a table on demand");
    }

    /** Finishes every table and makes them durable (including their directory entries). */
    List<FileMeta> finish() throws IOException;

    /** Table numbers this sink created (to release from pending outputs once installed or abandoned). */
    List<Long> created();

    /** Deletes everything written after a failure. */
    void abandon();
}
