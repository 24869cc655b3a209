package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.ThreadAllocations;
import io.bellows.engine.TriadOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.compaction.TableOutputs;
import io.bellows.engine.internal.compaction.SinkFeeder;
import io.bellows.engine.internal.compaction.TableSink;
import io.bellows.engine.internal.compaction.TableWriteContext;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.version.FileMeta;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.version.VersionSet;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogWriter;
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
 * TRIAD-LOG's CL-table sink on the slice path (issue 16 item 1): fed views that the next entry
 * overwrites, as a flush's merge hands them out, it writes the same index, key range and sketch as fed
 * arrays; and the only bytes it allocates per entry are the index it keeps.
 */
class ClTableSinkViewTest {
    private static final Path DIR = Path.of("/db");
    private static final long LOG = 7;
    private static final long FIRST_SEQ = 40;

    /** One version as the flush hands it to the sink. */
    private record Entry(byte[] key, long seq, int kind, byte[] value) {}

    @Test
    void viewsWriteTheIndexArraysWrite() throws IOException {
        long seed = TestSeeds.seed("ClTableSinkViewTest.viewsWriteTheIndexArraysWrite");
        Random rnd = new Random(seed);
        for (int round = 0; round < 10; round++) {
            List<Entry> ops = new ArrayList<>();
            int logged = 1 + rnd.nextInt(2000);
            int unlogged = rnd.nextInt(300);
            for (int i = 0; i < logged + unlogged; i++) {
                byte[] key = String.format("k%0" + (1 + rnd.nextInt(12)) + "d", rnd.nextInt(1 + logged / 3))
                        .getBytes(StandardCharsets.US_ASCII);
                boolean put = rnd.nextInt(5) > 0;
                byte[] value = new byte[put ? rnd.nextInt(200) : 0];
                rnd.nextBytes(value);
                ops.add(new Entry(key, FIRST_SEQ + i, put ? InternalKeys.KIND_PUT : InternalKeys.KIND_DELETE, value));
            }
            // The ops past the logged ones are versions no log holds: the index stores their values.
            List<Entry> flushed = sorted(ops);
            Flushed arrays = flush(ops.subList(0, logged), flushed, false, rnd);
            Flushed views = flush(ops.subList(0, logged), flushed, true, rnd);
            String where = "seed " + seed + ", round " + round;
            assertArrayEquals(arrays.index, views.index, where);
            assertArrayEquals(arrays.sketch, views.sketch, where);
            FileMeta a = arrays.meta;
            FileMeta v = views.meta;
            assertArrayEquals(a.smallestKey, v.smallestKey, where);
            assertArrayEquals(a.largestKey, v.largestKey, where);
            assertArrayEquals(flushed.get(flushed.size() - 1).key(), v.largestKey, where);
            assertEquals(List.of(a.smallestSeq, a.largestSeq, a.entries, a.maxSequence),
                    List.of(v.smallestSeq, v.largestSeq, v.entries, v.maxSequence), where);
        }
    }

    @Test
    void viewsAllocateOnlyTheIndex() throws IOException {
        ThreadAllocations.assumeCounted();
        int n = 20_000;
        List<Entry> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] key = String.format("key%013d", i).getBytes(StandardCharsets.US_ASCII);
            ops.add(new Entry(key, FIRST_SEQ + i, InternalKeys.KIND_PUT, new byte[100]));
        }
        // The first half of the versions is in the log (pointers), the others are copied into the index.
        List<Entry> logged = ops.subList(0, n / 2);
        List<Entry> flushed = sorted(ops);
        long views = 0;
        long copies = 0;
        long index = 0;
        for (int round = 0; round < 4; round++) {
            Measured v = measure(logged, flushed, true);
            Measured c = measure(logged, flushed, false);
            views = v.bytes;
            copies = c.bytes;
            index = v.indexBytes;
        }
        System.out.printf("ClTableSinkViewTest: %d entries, %.1f bytes/entry through views, %.1f through copies, index"
                + " %.1f bytes/entry%n", n, (double) views / n, (double) copies / n, (double) index / n);
        // Copied out, a 16-byte key is a 32-byte array and a 100-byte value a 120-byte one.
        assertTrue(copies - views > 140L * n, views + " bytes through views, " + copies + " through copies");
        // The index's array doubles as it grows: every array it had adds up to less than 4 times its bytes.
        assertTrue(views < 4 * index + (16 << 10), views + " bytes through views, index of " + index + " bytes");
    }

    private record Flushed(byte[] index, byte[] sketch, FileMeta meta) {}

    private record Measured(long bytes, long indexBytes) {}

    /** Flushes {@code flushed} through a CL-table sink over a log of {@code logged}. */
    private static Flushed flush(List<Entry> logged, List<Entry> flushed, boolean views, Random rnd)
            throws IOException {
        Store s = new Store(logged, true);
        SinkFeeder feed = new SinkFeeder(448);
        for (Entry e : flushed) {
            feed.add(s.sink, e.key(), e.seq(), e.kind(), e.value(), views, rnd.nextInt(64));
        }
        FileMeta meta = s.sink.finish().get(0);
        return new Flushed(s.fs.readAll(FileNames.table(DIR, meta.number)), s.scheme.sketches().get(meta.number)
                .encode(), meta);
    }

    /** Bytes allocated adding every entry but the first (which reads the logs), without the sketch. */
    private static Measured measure(List<Entry> logged, List<Entry> flushed,
            boolean views) throws IOException {
        Store s = new Store(logged, false);
        SinkFeeder feed = new SinkFeeder(448);
        Entry first = flushed.get(0);
        feed.add(s.sink, first.key(), first.seq(), first.kind(), first.value(), views, 0);
        long before = ThreadAllocations.allocated();
        for (int i = 1; i < flushed.size(); i++) {
            Entry e = flushed.get(i);
            feed.add(s.sink, e.key(), e.seq(), e.kind(), e.value(), views, i & 31);
        }
        long bytes = ThreadAllocations.allocated() - before;
        FileMeta meta = s.sink.finish().get(0);
        return new Measured(bytes, meta.fileSize);
    }

    /** Entries in internal-key order: user key ascending, then sequence descending. */
    private static List<Entry> sorted(List<Entry> ops) {
        List<Entry> out = new ArrayList<>(ops);
        out.sort((x, y) -> InternalKeys.compare(x.key(), x.seq(), y.key(), y.seq()));
        return out;
    }

    /** A store whose log {@link #LOG} holds {@code logged}, and a CL-table sink of a flush of that log. */
    private static final class Store {
        final CrashableFileSystem fs = new CrashableFileSystem();
        final TriadScheme scheme;
        final TableSink sink;

        Store(List<Entry> logged, boolean sketched) throws IOException {
            fs.createDirectories(DIR);
            WriteBatch b = new WriteBatch();
            for (Entry e : logged) {
                if (e.kind() == InternalKeys.KIND_PUT) {
                    b.put(e.key(), e.value());
                } else {
                    b.delete(e.key());
                }
            }
            try (LogWriter w = new LogWriter(fs.createLog(FileNames.log(DIR, LOG)), FileHeader.KIND_WAL)) {
                byte[] rec = BatchCodec.encode(FIRST_SEQ, List.of(b));
                w.addRecord(rec, 0, rec.length);
                w.sync();
            }
            scheme = new TriadScheme(EngineOptions.builder().numLevels(4)
                    .compaction(TriadOptions.builder().log(true).mem(false).disk(sketched).build()).build());
            VersionSet versions = new VersionSet(DIR, fs, 4, scheme, () -> {});
            versions.create("TRIAD");
            TableWriteContext ctx = new TableWriteContext(DIR, fs, versions, new TableOutputs.Format(4096, 16, 10),
                    new HashSet<>(), null, new LongAdder(), null);
            sink = scheme.flushOutputs(ctx, new long[] {LOG});
        }
    }
}
