package io.bellows.engine.internal.trace;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineIOException;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trace capture through the engine's API, the reader's view of it, and a torn tail. */
class TraceTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static List<TraceReader.Block> blocks(Path file) throws IOException {
        List<TraceReader.Block> out = new ArrayList<>();
        try (TraceReader r = TraceReader.open(file)) {
            for (TraceReader.Block blk = r.next(); blk != null; blk = r.next()) {
                out.add(blk);
            }
            assertEquals(-1, r.tornAt());
        }
        return out;
    }

    private static List<TraceRecord> records(Path file) throws IOException {
        List<TraceRecord> out = new ArrayList<>();
        for (TraceReader.Block blk : blocks(file)) {
            out.addAll(blk.records());
        }
        return out;
    }

    @Test
    void everyRecordKindRoundTripsThroughAnEngine() throws IOException {
        Path trace = dir.resolve("ops.trace");
        try (Engine db = Engine.open(dir.resolve("db"), EngineOptions.defaults())) {
            db.put(b("before"), b("untraced"));
            db.startTrace(trace, TraceOptions.builder().values(true).build());
            assertThrows(IllegalStateException.class, () -> db.startTrace(dir.resolve("other"), TraceOptions.defaults()));
            db.put(b("a"), b("va"));
            assertArrayEquals(b("va"), db.get(b("a")));
            assertEquals(2, db.get(b("a"), new byte[8], 0, ReadOptions.defaults()));
            db.delete(b("before"));
            db.write(new WriteBatch().put(b("b"), b("vb")).delete(b("zz")).put(b("c"), b("")));
            db.multiGet(List.of(b("a"), b("q")));
            try (Cursor c = db.cursor(ReadOptions.defaults().from(b("a")).to(b("c")))) {
                c.seek(b("a"));
                c.next();
                c.next();
                c.seekForPrev(b("b"));
                c.prev();
                c.seekToFirst();
                c.seekToLast();
            }
            db.endTrace();
            db.put(b("after"), b("untraced"));
        }
        List<TraceRecord> r = records(trace);
        assertEquals(14, r.size(), r.toString());
        TraceRecord.Put put = (TraceRecord.Put) r.get(0);
        assertArrayEquals(b("a"), put.key());
        assertEquals(2, put.valueLength());
        assertArrayEquals(b("va"), put.value());
        assertArrayEquals(b("a"), ((TraceRecord.Get) r.get(1)).key());
        assertArrayEquals(b("a"), ((TraceRecord.Get) r.get(2)).key());
        assertArrayEquals(b("before"), ((TraceRecord.Delete) r.get(3)).key());
        List<TraceRecord.BatchOp> ops = ((TraceRecord.Write) r.get(4)).ops();
        assertEquals(3, ops.size());
        assertTrue(ops.get(0).put());
        assertArrayEquals(b("vb"), ops.get(0).value());
        assertFalse(ops.get(1).put());
        assertArrayEquals(b("zz"), ops.get(1).key());
        assertEquals(0, ops.get(2).valueLength());
        List<byte[]> keys = ((TraceRecord.MultiGet) r.get(5)).keys();
        assertArrayEquals(b("q"), keys.get(1));
        TraceRecord.CursorOpen open = (TraceRecord.CursorOpen) r.get(6);
        assertArrayEquals(b("a"), open.lower());
        assertArrayEquals(b("c"), open.upper());
        long id = open.cursor();
        assertMove(r.get(7), TraceFormat.SEEK, id, "a");
        TraceRecord.CursorStep nexts = (TraceRecord.CursorStep) r.get(8);
        assertEquals(2, nexts.steps(), "two nexts in a row are one record");
        assertTrue(nexts.forward());
        assertMove(r.get(9), TraceFormat.SEEK_FOR_PREV, id, "b");
        TraceRecord.CursorStep prev = (TraceRecord.CursorStep) r.get(10);
        assertFalse(prev.forward());
        assertEquals(1, prev.steps());
        assertMove(r.get(11), TraceFormat.SEEK_TO_FIRST, id, null);
        assertMove(r.get(12), TraceFormat.SEEK_TO_LAST, id, null);
        assertMove(r.get(13), TraceFormat.CURSOR_CLOSE, id, null);
        long last = -1;
        for (TraceRecord rec : r) {
            assertTrue(rec.time() >= last, "times grow within a thread: " + r);
            last = rec.time();
        }
    }

    private static void assertMove(TraceRecord rec, int kind, long cursor, String key) {
        TraceRecord.CursorMove m = (TraceRecord.CursorMove) rec;
        assertEquals(TraceFormat.kindName(kind), TraceFormat.kindName(m.kind()));
        assertEquals(cursor, m.cursor());
        if (key == null) {
            assertNull(m.key());
        } else {
            assertArrayEquals(b(key), m.key());
        }
    }

    @Test
    void aTraceFromOpenEndsAtCloseAndAnUnwritableOneIsRefused() throws IOException {
        Path trace = dir.resolve("open.trace");
        EngineOptions traced = EngineOptions.builder().trace(trace, TraceOptions.defaults()).build();
        try (Engine db = Engine.open(dir.resolve("db"), traced)) {
            db.put(b("k"), b("v"));
            assertThrows(IllegalStateException.class, () -> db.startTrace(dir.resolve("second"), TraceOptions.defaults()));
        }
        assertEquals(1, records(trace).size(), "close wrote the partial block");
        try (Engine db = Engine.open(dir.resolve("db"), EngineOptions.defaults())) {
            assertThrows(EngineIOException.class, () -> db.startTrace(dir.resolve("missing/dir/t"), TraceOptions.defaults()));
            db.endTrace();
            assertArrayEquals(b("v"), db.get(b("k")), "the engine goes on");
        }
    }

    @Test
    void lengthsOnlyUnlessValuesAreAsked() throws IOException {
        Path trace = dir.resolve("lengths.trace");
        TraceWriter w = TraceWriter.start(trace, TraceOptions.defaults());
        w.put(System.nanoTime(), b("k"), new byte[300]);
        w.close();
        try (TraceReader r = TraceReader.open(trace)) {
            assertFalse(r.values());
        }
        TraceRecord.Put put = (TraceRecord.Put) records(trace).get(0);
        assertEquals(300, put.valueLength());
        assertNull(put.value());
    }

    @Test
    void threadsKeepTheirOrderAcrossManySmallBlocks() throws Exception {
        Path trace = dir.resolve("threads.trace");
        TraceWriter w = TraceWriter.start(trace, TraceOptions.defaults(), 64);
        int threads = 3;
        int each = 300;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    w.put(System.nanoTime(), b(id + ":" + i), new byte[i % 7]);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        w.close();
        List<List<String>> byThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            byThread.add(new ArrayList<>());
        }
        List<TraceReader.Block> blocks = blocks(trace);
        assertTrue(blocks.size() > 3 * threads, "small blocks split each thread's records: " + blocks.size());
        for (TraceReader.Block blk : blocks) {
            for (TraceRecord rec : blk.records()) {
                byThread.get(blk.thread()).add(new String(((TraceRecord.Put) rec).key(), UTF_8));
            }
        }
        for (List<String> keys : byThread) {
            assertEquals(each, keys.size());
            String owner = keys.get(0).substring(0, keys.get(0).indexOf(':'));
            for (int i = 0; i < each; i++) {
                assertEquals(owner + ":" + i, keys.get(i));
            }
        }
    }

    @Test
    void aTornTailIsLeftOutAndEverythingBeforeItRead() throws IOException {
        Path trace = dir.resolve("torn.trace");
        TraceWriter w = TraceWriter.start(trace, TraceOptions.defaults(), 64);
        for (int i = 0; i < 50; i++) {
            w.get(System.nanoTime(), b("key" + i));
        }
        w.close();
        List<TraceReader.Block> all = blocks(trace);
        byte[] bytes = Files.readAllBytes(trace);
        long lastBlock = all.get(all.size() - 1).offset();
        int before = all.size() - 1;
        // Cut inside the last block's length, inside its body, inside its CRC; and a flipped body byte.
        for (long cut : new long[] {lastBlock + 2, lastBlock + 9, bytes.length - 1}) {
            Files.write(trace, Arrays.copyOf(bytes, (int) cut));
            assertTorn(trace, before, lastBlock);
        }
        byte[] flipped = bytes.clone();
        flipped[(int) lastBlock + 6] ^= 0x10;
        Files.write(trace, flipped);
        assertTorn(trace, before, lastBlock);
        // Cut at a block boundary: a shorter trace, not a torn one.
        Files.write(trace, Arrays.copyOf(bytes, (int) lastBlock));
        assertEquals(before, blocks(trace).size());
    }

    private static void assertTorn(Path trace, int intactBlocks, long tornAt) throws IOException {
        try (TraceReader r = TraceReader.open(trace)) {
            int n = 0;
            while (r.next() != null) {
                n++;
            }
            assertEquals(intactBlocks, n);
            assertEquals(tornAt, r.tornAt());
        }
    }

    @Test
    void stopsAtMaxFileSizeAndStaysReadable() throws IOException {
        Path trace = dir.resolve("full.trace");
        TraceWriter w = TraceWriter.start(trace, TraceOptions.builder().values(true).maxFileSize(1 << 20).build());
        for (int i = 0; i < 400; i++) {
            w.put(System.nanoTime(), b("k" + i), new byte[4096]);
        }
        w.close();
        assertTrue(Files.size(trace) <= 1 << 20, "size " + Files.size(trace));
        List<TraceRecord> r = records(trace);
        assertTrue(r.size() > 100 && r.size() < 400, "records kept: " + r.size());
        assertArrayEquals(b("k" + (r.size() - 1)), ((TraceRecord.Put) r.get(r.size() - 1)).key());
    }

    @Test
    void workedExampleOfTheSpec() throws IOException {
        Path trace = dir.resolve("example.trace");
        long origin = 5_000_000_000L;
        TraceWriter w = TraceWriter.start(trace, TraceOptions.defaults(), TraceWriter.BLOCK_SIZE, origin,
                1_700_000_000_000L);
        w.put(origin + 1000, b("k1"), b("abc"));
        w.get(origin + 2500, b("k1"));
        w.close();
        byte[] expected = hex("42 45 4c 4c 4f 57 53 21  07 00  01 00  a5 e0 06 2c"
                + "  00 00 00 00  00 68 e5 cf 8b 01 00 00  ca 6a e0 65"
                + "  10 00 00 00  00  e8 07  02"
                + "  02 00 02 6b 31 03"
                + "  01 dc 0b 02 6b 31"
                + "  94 d1 cc 5b");
        assertArrayEquals(expected, Files.readAllBytes(trace));
        List<TraceRecord> r = records(trace);
        assertEquals(1000, r.get(0).time());
        assertEquals(2500, r.get(1).time());
    }

    private static byte[] hex(String s) {
        String[] parts = s.trim().split("\\s+");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }
}
