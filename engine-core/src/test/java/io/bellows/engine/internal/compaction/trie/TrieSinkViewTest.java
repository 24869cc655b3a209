package io.bellows.engine.internal.compaction.trie;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.TrieOptions;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.SinkFeeder;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.table.htable.HTableFormat;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * LSM_TRIE's flush sink on the slice path (issue 16 item 1): fed views that the next entry overwrites,
 * as a flush's merge hands them out, it writes the same HTables as fed arrays; and it copies only what
 * the HTable keeps until it is written: a key once for all its versions and a PUT's value.
 */
class TrieSinkViewTest {
    private static final Path DIR = Path.of("/db");

    private record Entry(byte[] key, long seq, int kind, byte[] value) {}

    @Test
    void viewsWriteTheTablesArraysWrite() throws IOException {
        long seed = TestSeeds.seed("TrieSinkViewTest.viewsWriteTheTablesArraysWrite");
        Random rnd = new Random(seed);
        for (int round = 0; round < 6; round++) {
            List<Entry> entries = new ArrayList<>();
            int keys = 1 + rnd.nextInt(1500);
            long seq = 1;
            for (int k = 0; k < keys; k++) {
                byte[] key = String.format("k%0" + (1 + rnd.nextInt(12)) + "d", k).getBytes(StandardCharsets.US_ASCII);
                int versions = 1 + rnd.nextInt(4);
                for (int v = 0; v < versions; v++) {
                    boolean put = rnd.nextInt(4) > 0;
                    byte[] value = new byte[put ? rnd.nextInt(rnd.nextInt(20) == 0 ? 3000 : 200) : 0];
                    rnd.nextBytes(value);
                    entries.add(new Entry(key, seq++, put ? InternalKeys.KIND_PUT : InternalKeys.KIND_DELETE, value));
                }
            }
            entries.sort((x, y) -> InternalKeys.compare(x.key(), x.seq(), y.key(), y.seq()));
            // 16-bucket tables (about 62 KB): a flush of a few hundred KB cuts several.
            List<byte[]> arrays = new ArrayList<>();
            List<FileMeta> arrayMetas = flush(entries, false, rnd, 16, arrays);
            List<byte[]> views = new ArrayList<>();
            List<FileMeta> viewMetas = flush(entries, true, rnd, 16, views);
            String where = "seed " + seed + ", round " + round;
            assertEquals(arrays.size(), views.size(), where);
            for (int t = 0; t < arrays.size(); t++) {
                assertArrayEquals(arrays.get(t), views.get(t), where + ", table " + t);
                FileMeta a = arrayMetas.get(t);
                FileMeta v = viewMetas.get(t);
                assertArrayEquals(a.smallestKey, v.smallestKey, where);
                assertArrayEquals(a.largestKey, v.largestKey, where);
                assertEquals(List.of(a.number, a.fileSize, a.smallestSeq, a.largestSeq, a.entries, a.maxSequence),
                        List.of(v.number, v.fileSize, v.smallestSeq, v.largestSeq, v.entries, v.maxSequence), where);
            }
        }
    }

    @Test
    void viewsCopyOnlyWhatTheTableKeeps() throws IOException {
        ThreadAllocations.assumeCounted();
        // 5,000 keys of 16 bytes with 4 versions each; the newest version of every fourth key is a tombstone.
        int keys = 5000;
        List<Entry> entries = new ArrayList<>();
        long seq = 4L * keys;
        int tombstones = 0;
        for (int k = 0; k < keys; k++) {
            byte[] key = String.format("key%013d", k).getBytes(StandardCharsets.US_ASCII);
            for (int v = 0; v < 4; v++) {
                boolean delete = v == 0 && k % 4 == 0;
                tombstones += delete ? 1 : 0;
                entries.add(new Entry(key, seq--, delete ? InternalKeys.KIND_DELETE : InternalKeys.KIND_PUT,
                        delete ? new byte[0] : new byte[100]));
            }
        }
        int n = entries.size();
        long views = 0;
        long copies = 0;
        for (int round = 0; round < 4; round++) {
            views = measure(entries, true);
            copies = measure(entries, false);
        }
        System.out.printf("TrieSinkViewTest: %d entries, %.1f bytes/entry through views, %.1f through copies%n", n,
                (double) views / n, (double) copies / n);
        // Copied per version, a key is a 32-byte array and a tombstone's empty value a 16-byte one.
        long saved = 3L * keys * 32 + 16L * tombstones;
        assertTrue(copies - views > saved * 9 / 10, views + " bytes through views, " + copies + " through copies");
        // What the table keeps: each entry's encoding, packed, and 48 bytes of per-entry arrays, which double
        // as they grow (up to twice that, and as much again copied on the way); a quarter more for the rest.
        long kept = 3L * 48 * n;
        for (Entry e : entries) {
            kept += HTableFormat.itemSize(e.key().length, e.value().length, e.seq(),
                    e.kind() == InternalKeys.KIND_DELETE);
        }
        assertTrue(views < kept * 5 / 4, views + " bytes through views; the table keeps " + kept);
    }

    /** Bytes allocated adding {@code entries} to a flush's sink, its tables large enough to hold them all. */
    private static long measure(List<Entry> entries, boolean views)
            throws IOException {
        Store s = new Store(1024);
        SinkFeeder feed = new SinkFeeder(4032);
        long before = ThreadAllocations.allocated();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            feed.add(s.sink, e.key(), e.seq(), e.kind(), e.value(), views, i & 31);
        }
        long bytes = ThreadAllocations.allocated() - before;
        s.sink.abandon();
        return bytes;
    }

    private static List<FileMeta> flush(List<Entry> entries, boolean views, Random rnd, int buckets, List<byte[]> files)
            throws IOException {
        Store s = new Store(buckets);
        SinkFeeder feed = new SinkFeeder(4032);
        for (Entry e : entries) {
            feed.add(s.sink, e.key(), e.seq(), e.kind(), e.value(), views, rnd.nextInt(64));
        }
        List<FileMeta> metas = s.sink.finish();
        for (FileMeta f : metas) {
            files.add(s.fs.readAll(FileNames.table(DIR, f.number)));
        }
        return metas;
    }

    /** A new store of {@code buckets}-bucket tables and a flush's sink into it. */
    private static final class Store {
        final CrashableFileSystem fs = new CrashableFileSystem();
        final TableSink sink;

        Store(int buckets) throws IOException {
            fs.createDirectories(DIR);
            EngineOptions o = EngineOptions.builder()
                    .compaction(TrieOptions.builder().tableBuckets(buckets).depth(3).pileLimits(4, 8, 12).hashSeed(1)
                            .build())
                    .build();
            TrieScheme scheme = new TrieScheme(o);
            VersionSet versions = new VersionSet(DIR, fs, 3, scheme, () -> {});
            versions.create("LSM_TRIE");
            TableWriteContext ctx = new TableWriteContext(DIR, fs, versions, new TableOutputs.Format(4096, 16, 10),
                    new HashSet<>(), null, new LongAdder(), null);
            sink = scheme.flushOutputs(ctx);
        }
    }
}
