package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.htable.ClusterBox;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.List;

/** An LSM_TRIE get: the key's pile at each level of the trie, newest level first. */
final class PileProbe {
    private PileProbe() {}

    /**
     * Probes one pile per level, highest sequence first, keeping the newest entry found. A pile's tables
     * come from pushes of the parent and from merges in place, and their sequence ranges may interleave
     * (FLSM's guard fragments did), so a table's highest sequence does not prove it holds the newest
     * version of every key; a table whose highest sequence is not above the entry already found cannot,
     * and is not read. The filters come from the BloomCluster box of the key's bucket column in the
     * pile's newest table, which covers the older tables of the pile as well; only a table that box does
     * not cover (rare: tables written concurrently) costs another box. A table the box rules out is
     * never looked up: most of a pile's tables, at two cache misses each.
     */
    static boolean get(PileIndex idx, KeyHash h, int depth, byte[] key, long seq, TableSource tables,
            boolean fillCache, Lookup out, EngineCounters counters) throws IOException {
        long hi = h.hi(key);
        long lo = h.lo(key);
        long bloom = KeyHash.bloom(lo);
        Lookup probe = null;
        ClusterBox box = ClusterBox.perThread();
        for (int level = 0; level < depth; level++) {
            List<FileMeta> pile = idx.pile(Containers.id(level, KeyHash.path(hi, level)));
            boolean boxRead = false;
            boolean found = false;
            for (int i = 0, n = pile.size(); i < n; i++) { // indexed: no iterator per level
                FileMeta f = pile.get(i);
                if (found && f.maxSequence <= out.sequence) {
                    // The pile is ordered by highest sequence: no later table holds a newer entry.
                    break;
                }
                counters.tablesProbed.increment();
                HTableReader r = null;
                if (!boxRead || !box.covers(f.number)) {
                    r = tables.reader(f, HTableReader.class);
                    r.clusterBox(KeyHash.bucket(hi, r.clusterColumns()), fillCache, box);
                    boxRead = true;
                }
                if (!box.mayContain(f.number, bloom)) {
                    counters.bloomNegatives.increment();
                    continue;
                }
                if (r == null) {
                    r = tables.reader(f, HTableReader.class);
                }
                Lookup dst = found ? probe : out;
                if (found && probe == null) {
                    dst = probe = new Lookup();
                }
                if (r.get(key, hi, lo, seq, fillCache, dst)) {
                    if (dst != out && dst.sequence > out.sequence) {
                        out.set(dst);
                    }
                    found = true;
                }
            }
            if (found) {
                return true;
            }
        }
        return false;
    }
}
