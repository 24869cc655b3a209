package io.bellows.engine.internal.compaction.triad;

import io.bellows.engine.internal.compaction.TableAnnotator;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.iter.ExactScratch;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.version.FileMeta;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.datasketches.hll.HllSketch;

/**
 * The sketches of the L0 and L1 tables, by table number, kept in memory so that TRIAD-DISK decides
 * without I/O under the engine lock. Each table's sketch is also stored with the table (its scheme
 * metadata), so a reopened store loads them back ({@link #load}). Filled by the flush and compaction
 * threads as they finish tables, read by the picker, pruned when an edit deletes a table.
 */
final class Sketches {
    private final ConcurrentHashMap<Long, TableSketch> byTable = new ConcurrentHashMap<>();

    /** The sketch of table {@code number}, or null if it has none (written with TRIAD-DISK off). */
    TableSketch get(long number) {
        return byTable.get(number);
    }

    void remove(long number) {
        byTable.remove(number);
    }

    int size() {
        return byTable.size();
    }

    /** Reads the sketch stored with {@code f}, if it is not in memory yet. */
    void load(FileMeta f, TableSource tables) throws IOException {
        if (byTable.containsKey(f.number)) {
            return;
        }
        byte[] meta = tables.schemeMetadata(f);
        if (meta != null) {
            TableSketch s;
            try {
                s = TableSketch.decode(meta);
            } catch (IllegalArgumentException e) {
                throw new IOException("table #" + f.number + ": " + e.getMessage(), e);
            }
            byTable.put(f.number, s);
        }
    }

    /** An annotator that sketches each table a sink writes and keeps the sketch here as the table is finished. */
    TableAnnotator annotator() {
        return new TableAnnotator() {
            private HllSketch hll = TableSketch.newSketch();
            private long keys;
            private final ExactScratch scratch = new ExactScratch();

            @Override
            public void addKey(byte[] userKey) {
                // DataSketches ignores an empty array; leaving the empty key out of the count too keeps the
                // sketch and the count about the same keys.
                if (userKey.length > 0) {
                    hll.update(userKey);
                    keys++;
                }
            }

            /**
             * HllSketch hashes a whole array (MurmurHash3 over every byte) and has no (array, offset, length)
             * form; its ByteBuffer form wraps the buffer in new objects each call. So the key goes into a
             * reused array of exactly its length, and the sketch is the one the key's own array would give.
             */
            @Override
            public void addKey(Slice userKey) {
                if (userKey.length() > 0) {
                    hll.update(scratch.of(userKey));
                    keys++;
                }
            }

            @Override
            public byte[] finish(long number) {
                TableSketch s = new TableSketch(keys, hll);
                hll = TableSketch.newSketch();
                keys = 0;
                byTable.put(number, s);
                return s.encode();
            }
        };
    }
}
