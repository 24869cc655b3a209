package io.bellows.engine.internal.table;

import io.bellows.engine.internal.io.ReadableFile;
import io.bellows.engine.internal.metrics.EngineCounters;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a table's writer still holds once the table is written and synced: enough to open a reader of
 * it without reading the file back (its index and filter, or an HTable's metadata). RocksDB opens each
 * table right after writing it; here that open costs no I/O.
 */
public interface WrittenTable {
    /**
     * A reader of the table in {@code file}, which it owns from then on (closed with it), reading its
     * blocks through {@code cache}; on failure the caller still owns {@code file}.
     */
    OpenTable open(ReadableFile file, Path path, long number, BlockCache cache, EngineCounters counters)
            throws IOException;
}
