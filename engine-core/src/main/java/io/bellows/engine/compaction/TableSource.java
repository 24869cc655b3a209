package io.bellows.engine.compaction;

import io.bellows.engine.iter.InternalIterator;
import io.bellows.engine.key.Lookup;
import io.bellows.engine.table.htable.HTableReader;
import io.bellows.engine.version.FileMeta;
import java.io.IOException;

/** Access to table contents by file, for schemes and compaction jobs (backed by the table cache). */
public interface TableSource {
    InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException;

    /** Point lookup in one table; see {@code TableReader.get}. */
    boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException;

    /** The reader of an HTable (LSM_TRIE); fails if the file is of another kind. */
    HTableReader htable(FileMeta file) throws IOException;
}
