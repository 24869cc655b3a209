package io.bellows.engine.internal.compaction.trie;

import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.htable.Entry;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.KeyHash;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Estimates the garbage ratio of a last-level container (the paper's sampling, end of §2.4.3): reads
 * the same few buckets in every table of its pile (the bucket a random hash lands in, in each table's
 * own bucket count), newest first, and weighs the items that a merge of
 * the pile would drop: versions shadowed by a newer one and tombstones. Only physical buckets are
 * sampled, so versions migrated to other buckets are missed; the estimate is a trigger, not a count.
 */
final class GarbageSampler {
    static final int SAMPLED_BUCKETS = 8;

    private GarbageSampler() {}

    /** Garbage bytes / item bytes over the sampled buckets of {@code pile} (newest first); 0 if empty. */
    static double estimate(List<FileMeta> pile, TableSource tables) throws IOException {
        if (pile.isEmpty()) {
            return 0;
        }
        long total = 0;
        long garbage = 0;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int i = 0; i < SAMPLED_BUCKETS; i++) {
            long hashBits = rnd.nextLong();
            Set<ByteBuffer> seen = new HashSet<>();
            for (FileMeta f : pile) {
                HTableReader r = tables.reader(f, HTableReader.class);
                List<Entry> items = r.bucketItems(KeyHash.bucket(hashBits, r.buckets()));
                // Within a table a key's versions are newest first once sorted.
                items.sort(Entry.ORDER);
                for (Entry e : items) {
                    total += e.size();
                    if (!seen.add(ByteBuffer.wrap(e.key())) || e.kind() == InternalKeys.KIND_DELETE) {
                        garbage += e.size();
                    }
                }
            }
        }
        return total == 0 ? 0 : (double) garbage / total;
    }
}
