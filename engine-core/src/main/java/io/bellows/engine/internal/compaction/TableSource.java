package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.WrittenTable;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;

/** Access to table contents by file, for schemes and compaction jobs (backed by the table cache). */
public interface TableSource {
    InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException;

    /**
     * Appends an iterator over each of {@code files} to {@code out}. If one cannot be opened, closes
     * the iterators this call appended and rethrows, so no table stays pinned by a half-built list.
     */
    default void addIterators(Iterable<FileMeta> files, boolean fillCache, List<InternalIterator> out)
            throws IOException {
        int start = out.size();
        try {
            for (FileMeta f : files) {
                out.add(iterator(f, fillCache));
            }
        } catch (IOException | RuntimeException e) {
            while (out.size() > start) {
                out.remove(out.size() - 1).close();
            }
            throw e;
        }
    }

    /**
     * Keeps a reader of new table {@code number}, finished and synced, built from what its writer still
     * held, so that no read of the table has to open it. A source that keeps no readers ignores it.
     */
    default void adopt(long number, WrittenTable written) {}

    /** Closes the reader {@link #adopt} kept for a table that was written but will not be installed. */
    default void discard(long number) {}

    /** Point lookup in one table; see {@code TableReader.get}. */
    boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException;

    /**
     * The open reader of {@code file} as its concrete format, for a scheme that uses more of its own
     * format than {@link OpenTable} offers; a {@code CorruptionException} if the file is of another format.
     */
    <T extends OpenTable> T reader(FileMeta file, Class<T> format) throws IOException;

    /**
     * The scheme metadata stored with table {@code file} ({@link TableAnnotator}), or null if it has none.
     */
    default byte[] schemeMetadata(FileMeta file) throws IOException {
        return reader(file, OpenTable.class).schemeMetadata();
    }
}
