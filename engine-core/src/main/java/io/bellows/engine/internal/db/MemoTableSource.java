package io.bellows.engine.internal.db;

import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.BlockMemo;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.TableReader;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;

/**
 * The table cache as one multiGet sees it: SSTable lookups go through a {@link BlockMemo}, so the batch
 * reads each data block once; everything else goes to the cache as it is.
 */
final class MemoTableSource implements TableSource {
    private final TableSource tables;
    private final BlockMemo memo = new BlockMemo();

    MemoTableSource(TableSource tables) {
        this.tables = tables;
    }

    @Override
    public InternalIterator iterator(FileMeta file, boolean fillCache) throws IOException {
        return tables.iterator(file, fillCache);
    }

    @Override
    public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) throws IOException {
        OpenTable t = tables.reader(file, OpenTable.class);
        if (t instanceof TableReader r) {
            return r.get(key, seq, fillCache, out, memo);
        }
        return t.get(key, seq, fillCache, out);
    }

    @Override
    public <T extends OpenTable> T reader(FileMeta file, Class<T> format) throws IOException {
        return tables.reader(file, format);
    }
}
