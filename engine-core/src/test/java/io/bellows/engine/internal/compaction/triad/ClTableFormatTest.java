package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.internal.io.CrashableFileSystem;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.io.WritableFile;
import io.bellows.engine.internal.iter.Slice;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.table.BlockCache;
import io.bellows.engine.internal.version.FileNames;
import io.bellows.engine.internal.wal.BatchCodec;
import io.bellows.engine.internal.wal.LogPositions;
import io.bellows.engine.internal.wal.LogWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The worked example of docs/formats/cl-table.md byte for byte: the WAL of docs/formats/wal.md (log 7) and
 * the CL-table index a flush of it writes, with one unlogged PUT copied into the index; then reading it
 * back, forwards and backwards, and a flipped byte in the log or the index reported as corruption.
 */
class ClTableFormatTest {
    private static final Path DIR = Path.of("/db");
    /** The WAL record body of docs/formats/wal.md: put("k", "v1") at 5, delete("a") at 6. */
    private static final String WAL_RECORD = "050000000000000002000000" + "01016b027631" + "000161";
    static final String EXAMPLE = "42454c4c4f57532106000100" + "1e3a757f"
            + "0107" + "03"
            + "0161" + "0006000000000000" + "00"
            + "016b" + "0105000000000000" + "01" + "10" + "0c"
            + "017a" + "0109000000000000" + "00" + "02" + "7a7a"
            + "00"
            + "2a000000" + "306a86e2";

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static CrashableFileSystem store() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(DIR);
        try (LogWriter w = new LogWriter(fs.createLog(FileNames.log(DIR, 7)), FileHeader.KIND_WAL)) {
            byte[] rec = HexFormat.of().parseHex(WAL_RECORD);
            w.addRecord(rec, 0, rec.length);
            w.sync();
        }
        // Where the flush finds each operation of the log.
        List<String> ops = new ArrayList<>();
        LogPositions.scan(fs.openLog(FileNames.log(DIR, 7)), FileNames.log(DIR, 7),
                (seq, kind, chunk, off) -> ops.add(seq + "/" + kind + "@" + chunk + "+" + off));
        assertEquals(List.of("5/1@16+12", "6/0@16+18"), ops);

        ClTableWriter w = new ClTableWriter(new long[] {7});
        w.addInline(Slice.of(bytes("a")), 6, InternalKeys.KIND_DELETE, null);
        w.addPointer(Slice.of(bytes("k")), 5, InternalKeys.KIND_PUT, 0, 16, 12);
        w.addInline(Slice.of(bytes("z")), 9, InternalKeys.KIND_PUT, Slice.of(bytes("zz")));
        WritableFile f = fs.createTable(FileNames.table(DIR, 8));
        assertEquals(EXAMPLE.length() / 2, w.finish(f, null));
        return fs;
    }

    @Test
    void theIndexIsTheDocumentedBytesAndReadsBack() throws Exception {
        CrashableFileSystem fs = store();
        assertEquals(EXAMPLE, HexFormat.of().formatHex(fs.readAll(FileNames.table(DIR, 8))));
        Path path = FileNames.table(DIR, 8);
        try (ClTableReader r = ClTableReader.open(fs.openTable(path), path, fs, null, 10)) {
            Lookup out = new Lookup();
            assertTrue(r.get(bytes("k"), 100, false, out));
            assertEquals(5, out.sequence);
            assertArrayEquals(bytes("v1"), out.copyValue(), "read from the log");
            assertTrue(r.get(bytes("a"), 100, false, out));
            assertEquals(InternalKeys.KIND_DELETE, out.kind);
            assertTrue(r.get(bytes("z"), 100, false, out));
            assertArrayEquals(bytes("zz"), out.copyValue(), "copied into the index");
            assertFalse(r.get(bytes("z"), 8, false, out), "no version at or below 8");
            assertFalse(r.get(bytes("b"), 100, false, out));
            assertArrayEquals(new long[] {7}, r.logs());

            ClTableIterator it = (ClTableIterator) r.iterator(false);
            List<String> forward = new ArrayList<>();
            for (it.seekToFirst(); it.isValid(); it.next()) {
                forward.add(new String(it.key()) + it.sequence());
            }
            assertEquals(List.of("a6", "k5", "z9"), forward);
            List<String> backward = new ArrayList<>();
            for (it.seekToLast(); it.isValid(); it.prev()) {
                backward.add(new String(it.key()) + it.sequence());
            }
            assertEquals(List.of("z9", "k5", "a6"), backward);
            it.seekForPrev(bytes("k"), 4);
            assertEquals("k", new String(it.key()), "(k, 5) is before (k, 4) in internal order");
            it.seekForPrev(bytes("k"), 6);
            assertEquals("a", new String(it.key()));
            it.seek(bytes("k"), 4);
            assertEquals("z", new String(it.key()));
            it.seekForPrev(bytes("a"), 7);
            assertFalse(it.isValid());
        }
    }

    @Test
    void aFlippedByteInTheLogOrTheIndexIsCorruption() throws Exception {
        CrashableFileSystem fs = store();
        Path log = FileNames.log(DIR, 7);
        Path path = FileNames.table(DIR, 8);
        for (int at = 16; at < fs.readAll(log).length; at++) {
            byte[] data = fs.readAll(log);
            byte[] flipped = data.clone();
            flipped[at] ^= 0x04;
            fs.overwrite(log, flipped);
            try (ClTableReader r = ClTableReader.open(fs.openTable(path), path, fs, null, 10)) {
                int pos = at;
                assertThrows(CorruptionException.class, () -> r.get(bytes("k"), 100, false, new Lookup()),
                        "flip at " + pos);
            }
            fs.overwrite(log, data);
        }
        byte[] index = fs.readAll(path);
        for (int at = 0; at < index.length; at++) {
            byte[] flipped = index.clone();
            flipped[at] ^= 0x10;
            fs.overwrite(path, flipped);
            int pos = at;
            assertThrows(CorruptionException.class, () -> ClTableReader.open(fs.openTable(path), path, fs, null, 10).close(),
                    "flip at " + pos);
        }
    }

    @Test
    void logChunksGoThroughTheBlockCacheWhenAskedTo() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(DIR);
        // A value of 80 KiB spans three 32 KiB log blocks: its chunks are cached one by one.
        byte[] big = new byte[80 << 10];
        new Random(5).nextBytes(big);
        WriteBatch b = new WriteBatch();
        b.put(bytes("big"), big);
        b.put(bytes("small"), bytes("s"));
        try (LogWriter w = new LogWriter(fs.createLog(FileNames.log(DIR, 7)), FileHeader.KIND_WAL)) {
            byte[] rec = BatchCodec.encode(40, List.of(b));
            w.addRecord(rec, 0, rec.length);
            w.sync();
        }
        long[][] at = new long[2][];
        LogPositions.scan(fs.openLog(FileNames.log(DIR, 7)), FileNames.log(DIR, 7),
                (seq, kind, chunk, off) -> at[(int) (seq - 40)] = new long[] {chunk, off});
        ClTableWriter w = new ClTableWriter(new long[] {7});
        w.addPointer(Slice.of(bytes("big")), 40, InternalKeys.KIND_PUT, 0, at[0][0], (int) at[0][1]);
        w.addPointer(Slice.of(bytes("small")), 41, InternalKeys.KIND_PUT, 0, at[1][0], (int) at[1][1]);
        Path path = FileNames.table(DIR, 8);
        w.finish(fs.createTable(path), null);

        BlockCache cache = new BlockCache(1 << 20);
        try (ClTableReader r = ClTableReader.open(fs.openTable(path), path, fs, cache, 0)) {
            Lookup out = new Lookup();
            assertTrue(r.get(bytes("big"), 100, false, out));
            assertArrayEquals(big, out.copyValue());
            assertEquals(0, cache.usedBytes(), "fillCache false leaves the cache alone");
            assertTrue(r.get(bytes("big"), 100, true, out));
            assertArrayEquals(big, out.copyValue());
            assertTrue(cache.usedBytes() > big.length, "every chunk of the value is cached: " + cache.usedBytes());
            assertTrue(r.get(bytes("small"), 100, true, out));
            // Cached chunks were verified when read: with the log wiped, reads are served from the cache.
            fs.overwrite(FileNames.log(DIR, 7), new byte[fs.readAll(FileNames.log(DIR, 7)).length]);
            assertTrue(r.get(bytes("big"), 100, false, out));
            assertArrayEquals(big, out.copyValue());
            assertTrue(r.get(bytes("small"), 100, false, out));
            assertArrayEquals(bytes("s"), out.copyValue());
        }
        // Without the cache, the wiped log is corruption, never a value.
        try (ClTableReader r = ClTableReader.open(fs.openTable(path), path, fs, null, 10)) {
            assertThrows(CorruptionException.class, () -> r.get(bytes("small"), 100, true, new Lookup()));
        }
    }

    /**
     * The filter built at open keeps every key of the index (each of its versions found, the newest first)
     * and turns most absent keys away before the index is searched; with filters off every key passes.
     */
    @Test
    void theFilterKeepsEveryKeyAndRejectsMostAbsentOnes() throws Exception {
        CrashableFileSystem fs = new CrashableFileSystem();
        fs.createDirectories(DIR);
        ClTableWriter w = new ClTableWriter(new long[0]);
        int keys = 2000;
        for (int k = 0; k < keys; k++) {
            byte[] key = bytes(String.format("key%06d", 2 * k));
            if (k % 3 == 0) {
                w.addInline(Slice.of(key), 3L * k + 2, InternalKeys.KIND_PUT, Slice.of(bytes("new" + k)));
            }
            w.addInline(Slice.of(key), 3L * k + 1, InternalKeys.KIND_PUT, Slice.of(bytes("old" + k)));
        }
        Path path = FileNames.table(DIR, 8);
        w.finish(fs.createTable(path), null);
        try (ClTableReader r = ClTableReader.open(fs.openTable(path), path, fs, null, 10);
                ClTableReader unfiltered = ClTableReader.open(fs.openTable(path), path, fs, null, 0)) {
            Lookup out = new Lookup();
            for (int k = 0; k < keys; k++) {
                byte[] key = bytes(String.format("key%06d", 2 * k));
                assertTrue(r.mayContain(key), "key " + k);
                assertTrue(r.get(key, InternalKeys.MAX_SEQUENCE, false, out), "key " + k);
                assertArrayEquals(bytes((k % 3 == 0 ? "new" : "old") + k), out.copyValue());
                assertTrue(r.get(key, 3L * k + 1, false, out), "the older version of key " + k);
                assertArrayEquals(bytes("old" + k), out.copyValue());
            }
            int passed = 0;
            for (int k = 0; k < keys; k++) {
                byte[] absent = bytes(String.format("key%06d", 2 * k + 1));
                assertFalse(r.get(absent, InternalKeys.MAX_SEQUENCE, false, out));
                assertTrue(unfiltered.mayContain(absent));
                passed += r.mayContain(absent) ? 1 : 0;
            }
            // 10 bits per key: about 1% false positives; 3% leaves room for chance, none would mean no filter.
            assertTrue(passed < keys * 3 / 100, passed + " of " + keys + " absent keys passed the filter");
        }
    }
}
