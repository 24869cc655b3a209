package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;

/**
 * A compaction's merge of HTables: a k-way merge, on a binary heap, of {@link HashOrderCursor}s, each
 * already in hash order, so no input is sorted in full (the cost LSM-trie's compaction was designed
 * to avoid, paper §2.3). The versions of a key meet newest first, as {@link VersionPruner} needs, and
 * each entry reaches the sink with its hash.
 */
final class HashMerge {
    private HashMerge() {}

    static void run(List<FileMeta> group, TableSource tables, VersionPruner pruner, TrieSink sink) throws IOException {
        HashOrderCursor[] heap = new HashOrderCursor[group.size()];
        int n = 0;
        long seed = sink.hashSeed();
        for (FileMeta f : group) {
            HTableReader r = tables.reader(f, HTableReader.class);
            if (r.hash().seed() != seed) {
                // Hash order and placement are only shared by tables of one seed (the store's).
                throw new IllegalStateException("table " + f.number + " has hash seed " + r.hash().seed()
                        + ", the store " + seed);
            }
            HashOrderCursor c = r.hashOrderCursor();
            if (c.next()) {
                heap[n++] = c;
            }
        }
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(heap, n, i);
        }
        while (n > 0) {
            HashOrderCursor top = heap[0];
            byte[] key = top.key();
            if (pruner.keep(key, top.sequence(), top.kind())) {
                sink.addHashed(key, top.sequence(), top.kind(), top.value(), top.hi(), top.lo());
            }
            if (!top.next()) {
                heap[0] = heap[--n];
                heap[n] = null;
            }
            siftDown(heap, n, 0);
        }
    }

    private static void siftDown(HashOrderCursor[] heap, int n, int i) {
        HashOrderCursor x = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && HashOrderCursor.compare(heap[child + 1], heap[child]) < 0) {
                child++;
            }
            if (HashOrderCursor.compare(heap[child], x) >= 0) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = x;
    }
}
