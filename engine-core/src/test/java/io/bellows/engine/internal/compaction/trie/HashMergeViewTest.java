package io.bellows.engine.internal.compaction.trie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.TableSource;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.compaction.VersionPruner;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.OpenTable;
import io.bellows.engine.internal.table.htable.FilterPageCache;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.table.htable.HTableProperties;
import io.bellows.engine.internal.table.htable.HTableReader;
import io.bellows.engine.internal.table.htable.HTableWriter;
import io.bellows.engine.internal.table.htable.HashOrderCursor;
import io.bellows.engine.internal.table.htable.HashOrderMerge;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * LSM_TRIE's compaction merge on the slice path (issue 16 item 1, issue 17): the entries of the input
 * HTables reach the sink as the cursors' views, and it writes the same HTables as the copying merge did
 * (each key and value copied out of its cursor before the pruner saw it); a version the pruner drops is
 * never copied, and one it keeps only into what the output table holds until it is written.
 */
class HashMergeViewTest {
    private static final Path DIR = Path.of("/db");

    private record Entry(byte[] key, long seq, int kind, byte[] value) {}

    @Test
    void viewsWriteTheTablesCopiesWrite() throws IOException {
        long seed = TestSeeds.seed("HashMergeViewTest.viewsWriteTheTablesCopiesWrite");
        Random rnd = new Random(seed);
        long dropped = 0;
        int overflowItems = 0;
        for (int round = 0; round < 6; round++) {
            List<List<Entry>> inputs = randomInputs(rnd);
            long[] snapshots = new long[rnd.nextInt(3)];
            for (int i = 0; i < snapshots.length; i++) {
                snapshots[i] = 1 + rnd.nextInt(4000);
            }
            Arrays.sort(snapshots);
            int split = 1 + rnd.nextInt(inputs.size() - 1);
            boolean pushDown = rnd.nextBoolean();
            String where = "seed " + seed + ", round " + round;

            Store copied = new Store(16, inputs);
            long[] droppedByCopies = new long[1];
            List<TrieSink.Placed> copies = copied.compact(split, pushDown, snapshots, false, droppedByCopies);
            Store viewed = new Store(16, inputs);
            List<TrieSink.Placed> views = viewed.compact(split, pushDown, snapshots, true, null);
            dropped += droppedByCopies[0];
            overflowItems += copied.overflowItems();

            assertEquals(copies.size(), views.size(), where);
            for (int t = 0; t < copies.size(); t++) {
                FileMeta a = copies.get(t).meta();
                FileMeta v = views.get(t).meta();
                assertEquals(copies.get(t).placement(), views.get(t).placement(), where + ", table " + t);
                assertArrayEquals(copied.fs.readAll(FileNames.table(DIR, a.number)),
                        viewed.fs.readAll(FileNames.table(DIR, v.number)), where + ", table " + t);
                assertArrayEquals(a.smallestKey, v.smallestKey, where);
                assertArrayEquals(a.largestKey, v.largestKey, where);
                assertEquals(List.of(a.number, a.fileSize, a.smallestSeq, a.largestSeq, a.entries, a.maxSequence),
                        List.of(v.number, v.fileSize, v.smallestSeq, v.largestSeq, v.entries, v.maxSequence), where);
            }
        }
        assertTrue(dropped > 0, "some versions are pruned, seed " + seed);
        assertTrue(overflowItems > 0, "some input items overflow, seed " + seed);
    }

    @Test
    void viewsCopyOnlyWhatTheTablesKeep() throws IOException {
        ThreadAllocations.assumeCounted();
        // Four tables, table t holding version t of 5,000 keys of 16 bytes (100-byte values); the newest
        // version of every fourth key is a tombstone. Merged in place with no snapshot, only the newest
        // PUTs are kept: the other 16,250 versions, the tombstones among them, are pruned.
        int keys = 5000;
        int versions = 4;
        List<List<Entry>> inputs = new ArrayList<>();
        for (int t = 0; t < versions; t++) {
            List<Entry> table = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                byte[] key = String.format("key%013d", k).getBytes(StandardCharsets.US_ASCII);
                boolean delete = t == versions - 1 && k % 4 == 0;
                table.add(new Entry(key, (long) t * keys + k + 1, delete ? InternalKeys.KIND_DELETE
                        : InternalKeys.KIND_PUT, delete ? new byte[0] : new byte[100]));
            }
            inputs.add(table);
        }
        Store s = new Store(1024, inputs);
        int n = keys * versions;
        int kept = keys - keys / 4;
        long views = 0;
        long copies = 0;
        for (int round = 0; round < 4; round++) {
            views = s.measureMerge(true);
            copies = s.measureMerge(false);
        }
        System.out.printf("HashMergeViewTest: %d entries merged, %d kept, %.1f bytes/entry through views, %.1f through"
                + " copies%n", n, kept, (double) views / n, (double) copies / n);
        // The copying merge took a 32-byte key array out of every entry it read, and the pruner another of
        // each tombstone it dropped.
        long saved = 32L * (n - kept) + 32L * (keys / 4);
        assertTrue(copies - views > saved * 9 / 10, views + " bytes through views, " + copies + " through copies");
        // What the tables keep of each kept entry: its 121-byte encoding (16-byte key, 100-byte value), packed,
        // and 48 bytes of per-entry arrays, which double as they grow (up to twice that, and as much again
        // copied on the way); a quarter more for the rest. Nothing per pruned entry.
        long keep = (121L + 3 * 48) * kept;
        assertTrue(views < keep * 5 / 4, views + " bytes through views; the tables keep " + keep);
    }

    /** Two to six tables (oldest first) over one pool of keys, some values large enough to overflow. */
    private static List<List<Entry>> randomInputs(Random rnd) {
        int poolSize = 50 + rnd.nextInt(800);
        List<byte[]> pool = new ArrayList<>();
        for (int k = 0; k < poolSize; k++) {
            pool.add(String.format("k%0" + (1 + rnd.nextInt(12)) + "d", k).getBytes(StandardCharsets.US_ASCII));
        }
        int tables = 2 + rnd.nextInt(5);
        List<List<Entry>> out = new ArrayList<>();
        long seq = 1;
        for (int t = 0; t < tables; t++) {
            List<Entry> table = new ArrayList<>();
            Set<Integer> chosen = new HashSet<>();
            int count = 1 + rnd.nextInt(poolSize);
            for (int i = 0; i < count; i++) {
                chosen.add(rnd.nextInt(poolSize));
            }
            for (int k : chosen) {
                int versionCount = 1 + rnd.nextInt(3);
                for (int v = 0; v < versionCount; v++) {
                    boolean put = rnd.nextInt(4) > 0;
                    int length = rnd.nextInt(40) == 0 ? HTableFormat.MAX_BUCKET_ITEM + rnd.nextInt(1500)
                            : rnd.nextInt(150);
                    byte[] value = new byte[put ? length : 0];
                    rnd.nextBytes(value);
                    table.add(new Entry(pool.get(k), seq++, put ? InternalKeys.KIND_PUT : InternalKeys.KIND_DELETE,
                            value));
                }
            }
            table.sort((x, y) -> InternalKeys.compare(x.key(), x.seq(), y.key(), y.seq()));
            out.add(table);
        }
        return out;
    }

    /**
     * The merge as it was before views: every key and value copied out of its cursor, the key before the
     * pruner sees it, then handed to the sink as arrays (which hashes them again, to the hashes the cursor
     * carries).
     */
    private static long copyingMerge(List<HashOrderCursor> cursors, long[] snapshots, boolean dropTombstones,
            TrieSink sink) throws IOException {
        VersionPruner pruner = new VersionPruner(snapshots, dropTombstones ? key -> true : null);
        HashOrderMerge merge = new HashOrderMerge(cursors);
        for (HashOrderCursor top = merge.top(); top != null; merge.advance(), top = merge.top()) {
            byte[] key = top.key();
            if (pruner.keep(key, top.sequence(), top.kind())) {
                sink.add(key, top.sequence(), top.kind(), top.value());
            }
        }
        return pruner.dropped();
    }

    /** A new store of {@code buckets}-bucket tables holding {@code inputs} as HTables, numbered in order. */
    private static final class Store implements TableSource {
        final CrashableFileSystem fs = new CrashableFileSystem();
        final TrieScheme scheme;
        final VersionSet versions;
        final TableWriteContext ctx;
        final List<FileMeta> files = new ArrayList<>();
        private final Map<Long, HTableReader> readers = new HashMap<>();
        private final FilterPageCache filterCache = new FilterPageCache(1 << 20);

        Store(int buckets, List<List<Entry>> inputs) throws IOException {
            fs.createDirectories(DIR);
            EngineOptions o = EngineOptions.builder()
                    .compaction(TrieOptions.builder().tableBuckets(buckets).depth(3).pileLimits(4, 8, 12).hashSeed(1)
                            .build())
                    .build();
            scheme = new TrieScheme(o);
            versions = new VersionSet(DIR, fs, 3, scheme, () -> {});
            versions.create("LSM_TRIE");
            ctx = new TableWriteContext(DIR, fs, versions, new TableOutputs.Format(4096, 16, 10), new HashSet<>(), this,
                    new LongAdder(), null);
            for (List<Entry> input : inputs) {
                HTableWriter w = new HTableWriter(scheme.hash(), scheme.buckets(), scheme.bloomBitsPerKey());
                for (Entry e : input) {
                    if (w.wouldOverfill(HTableFormat.itemSize(e.key().length, e.value().length, e.seq(),
                            e.kind() == InternalKeys.KIND_DELETE))) {
                        break;
                    }
                    w.add(e.key(), e.seq(), e.kind(), e.value(), scheme.hash().hi(e.key()), scheme.hash().lo(e.key()));
                }
                long number = versions.newFileNumber();
                WritableFile file = fs.createTable(FileNames.table(DIR, number));
                HTableProperties p = w.write(file, number, List.of());
                files.add(new FileMeta(number, p.fileSize(), p.smallestKey(), p.smallestSeq(), p.largestKey(),
                        p.largestSeq(), p.entries(), p.maxSeq()));
            }
        }

        /**
         * Merges the older inputs (before {@code split}) and then the newer as two groups, the first pushed
         * down into the eight children of the root or written back into it, the second merged in place with
         * its tombstones dropped, as {@link TrieScheme#runCompaction} runs groups.
         */
        List<TrieSink.Placed> compact(int split, boolean pushDown, long[] snapshots, boolean views, long[] dropped)
                throws IOException {
            Set<Long> excluded = new HashSet<>();
            long stamp = 0;
            for (FileMeta f : files) {
                excluded.add(f.number);
                stamp = Math.max(stamp, f.maxSequence);
            }
            TrieSink sink = new TrieSink(ctx, scheme, 0, excluded, stamp);
            List<List<FileMeta>> groups = List.of(files.subList(0, split), files.subList(split, files.size()));
            for (int g = 0; g < groups.size(); g++) {
                boolean whole = g == 1;
                sink.level(g == 0 && pushDown ? 1 : 0, List.of());
                if (views) {
                    HashMerge.run(groups.get(g), this, snapshots, whole, sink);
                } else {
                    dropped[0] += copyingMerge(cursors(groups.get(g)), snapshots, whole, sink);
                }
                sink.finishStreams();
            }
            return sink.finishPlaced();
        }

        /** Bytes allocated merging every input into the root's children, once the inputs are open. */
        long measureMerge(boolean views) throws IOException {
            List<HashOrderCursor> cursors = cursors(files);
            TrieSink sink = new TrieSink(ctx, scheme, 1, Set.of(), 0);
            VersionPruner pruner = HashMerge.pruner(new long[0], true);
            long before = ThreadAllocations.allocated();
            if (views) {
                HashMerge.merge(cursors, pruner, sink);
            } else {
                copyingMerge(cursors, new long[0], true, sink);
            }
            long bytes = ThreadAllocations.allocated() - before;
            sink.abandon();
            return bytes;
        }

        int overflowItems() throws IOException {
            int n = 0;
            for (FileMeta f : files) {
                n += reader(f, HTableReader.class).overflowItems();
            }
            return n;
        }

        private List<HashOrderCursor> cursors(List<FileMeta> group) throws IOException {
            List<HashOrderCursor> out = new ArrayList<>();
            for (FileMeta f : group) {
                out.add(reader(f, HTableReader.class).hashOrderCursor(null));
            }
            return out;
        }

        @Override
        public <T extends OpenTable> T reader(FileMeta file, Class<T> format) throws IOException {
            HTableReader r = readers.get(file.number);
            if (r == null) {
                Path path = FileNames.table(DIR, file.number);
                r = HTableReader.open(fs.openTable(path), path, file.number, filterCache, new EngineCounters());
                readers.put(file.number, r);
            }
            return format.cast(r);
        }

        @Override
        public InternalIterator iterator(FileMeta file, boolean fillCache) {
            throw new UnsupportedOperationException("a trie compaction reads its inputs in hash order");
        }

        @Override
        public boolean get(FileMeta file, byte[] key, long seq, boolean fillCache, Lookup out) {
            throw new UnsupportedOperationException("a compaction does not look keys up");
        }
    }
}
