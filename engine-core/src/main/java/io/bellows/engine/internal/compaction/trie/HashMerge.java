package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.Compaction;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.HashOrderMerge;
import io.bellows.engine.internal.util.Futures;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A compaction's merge of HTables ({@link HashOrderMerge}): each entry the pruner keeps reaches the sink
 * with its hash. Entries travel as the cursors' views, so a version the pruner drops is never copied and
 * one it keeps is copied only by the sink, into what its table holds until written.
 */
final class HashMerge {
    /**
     * Every tombstone of the oldest stripe goes (the group's whole subtree is merged in place, so nothing
     * older can hide below it); answering for views too keeps the pruner from copying such a tombstone's
     * key only to drop it.
     */
    private static final Compaction.BaseLevelTest WHOLE_SUBTREE = new Compaction.BaseLevelTest() {
        @Override
        public boolean isBaseLevelFor(byte[] key) {
            return true;
        }

        @Override
        public boolean isBaseLevelFor(Slice key) {
            return true;
        }
    };

    private HashMerge() {}

    /** @param dropTombstones whether the group's whole subtree is merged in place */
    static void run(List<FileMeta> group, TableSource tables, long[] snapshots, boolean dropTombstones,
            TrieSink sink) throws IOException {
        List<CompletableFuture<HashOrderCursor>> opening = new ArrayList<>(group.size());
        long seed = sink.hashSeed();
        Executor readAhead = sink.reads().executor();
        for (FileMeta f : group) {
            // Each cursor reads its table's first window: side by side, not one after another; the next
            // windows are read ahead on the same threads.
            opening.add(sink.reads().start(() -> {
                HTableReader r = tables.reader(f, HTableReader.class);
                if (r.hash().seed() != seed) {
                    // Hash order and placement are only shared by tables of one seed (the store's).
                    throw new IllegalStateException("table " + f.number + " has hash seed " + r.hash().seed()
                            + ", the store " + seed);
                }
                return r.hashOrderCursor(readAhead);
            }));
        }
        List<HashOrderCursor> cursors;
        try {
            cursors = TrieReads.joinAll(opening);
        } catch (IOException | RuntimeException | Error e) {
            for (CompletableFuture<HashOrderCursor> f : opening) {
                // An interrupted wait leaves openings running: each ends before the version is let go.
                Futures.awaitQuietly(f);
                if (f.isDone() && !f.isCompletedExceptionally()) {
                    f.join().close();
                }
            }
            throw e;
        }
        try {
            merge(cursors, pruner(snapshots, dropTombstones), sink);
        } finally {
            // No window is left being read once the compaction lets its version go.
            for (HashOrderCursor c : cursors) {
                c.close();
            }
        }
    }

    static VersionPruner pruner(long[] snapshots, boolean dropTombstones) {
        return new VersionPruner(snapshots, dropTombstones ? WHOLE_SUBTREE : null);
    }

    /** The merge once the inputs are open (apart, so the allocation test counts this part alone). */
    static void merge(List<HashOrderCursor> cursors, VersionPruner pruner, TrieSink sink) throws IOException {
        HashOrderMerge merge = new HashOrderMerge(cursors);
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            Slice key = top.keySlice();
            if (pruner.keep(key, top.sequence(), top.kind())) {
                sink.addHashed(key, top.sequence(), top.kind(), top.valueSlice(), top.hi(), top.lo());
            }
        }
    }
}
