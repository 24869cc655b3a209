package io.bellows.engine.internal.compaction;

import io.bellows.engine.internal.iter.Slice;

/**
 * Per-table scheme metadata: computed by the scheme from the keys of one table as the table is written,
 * and stored in it (the SSTable properties block's {@code scheme.metadata}, docs/formats/sstable.md), so
 * it lives and dies with the table. The scheme reads it back with {@link TableSource#schemeMetadata}.
 * One annotator serves the tables of one sink in turn, on the sink's thread.
 */
public interface TableAnnotator {
    /** The table being written receives its first entry of {@code userKey} (each user key once). */
    void addKey(byte[] userKey);

    /** As {@link #addKey(byte[])} for a key view valid during the call; this default copies it out. */
    default void addKey(Slice userKey) {
        addKey(userKey.copy());
    }

    /** The metadata of table {@code number}, now complete; the annotator then starts on the next table. */
    byte[] finish(long number);
}
