package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.HashOrderMerge;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A compaction's merge of HTables ({@link HashOrderMerge}): each entry the pruner keeps reaches the sink
 * with its hash.
 */
final class HashMerge {
    private HashMerge() {}

    static void run(List<FileMeta> group, TableSource tables, VersionPruner pruner, TrieSink sink) throws IOException {
        List<HashOrderCursor> cursors = new ArrayList<>(group.size());
        long seed = sink.hashSeed();
        for (FileMeta f : group) {
            HTableReader r = tables.reader(f, HTableReader.class);
            if (r.hash().seed() != seed) {
                // Hash order and placement are only shared by tables of one seed (the store's).
                throw new IllegalStateException("table " + f.number + " has hash seed " + r.hash().seed()
                        + ", the store " + seed);
            }
            cursors.add(r.hashOrderCursor());
        }
        HashOrderMerge merge = new HashOrderMerge(cursors);
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            byte[] key = top.key();
            if (pruner.keep(key, top.sequence(), top.kind())) {
                sink.addHashed(key, top.sequence(), top.kind(), top.value(), top.hi(), top.lo());
            }
        }
    }
}
