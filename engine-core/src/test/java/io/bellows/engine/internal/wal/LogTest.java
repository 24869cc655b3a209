package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFixture.HEADER;
import static io.bellows.engine.internal.wal.LogFixture.PATH;
import static io.bellows.engine.internal.wal.LogFixture.big;
import static io.bellows.engine.internal.wal.LogFixture.bytes;
import static io.bellows.engine.internal.wal.LogFixture.chunks;
import static io.bellows.engine.internal.wal.LogFixture.readAll;
import static io.bellows.engine.internal.wal.LogFixture.reader;
import static io.bellows.engine.internal.wal.LogFormat.BLOCK_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.CHUNK_HEADER_SIZE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.util.Bytes;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writing and reading undamaged logs (LevelDB log_test's round-trip cases). */
class LogTest {
    @Test
    void emptyLogIsJustAHeader() {
        LogFixture log = new LogFixture();
        byte[] contents = log.contents();
        assertEquals(HEADER, contents.length);
        assertEquals(HEADER, log.writer.size());
        LogReader r = reader(contents);
        assertNull(r.next());
        assertNull(r.next());
        assertEquals(-1, r.tornTailOffset());
        assertEquals(HEADER, r.validLength());
        assertEquals(-1, r.lastRecordOffset());
    }

    /** The worked byte example of docs/formats/wal.md. */
    @Test
    void workedExampleOfTheSpec() {
        byte[] body = {5, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 'k', 2, 'v', '1', 0, 1, 'a'};
        byte[] contents = new LogFixture().write(body).contents();
        String expected = "42454c4c4f575321" + "0100" + "0100" + "1f68e94f"
                + "164df41d" + "1500" + "01" + "050000000000000002000000" + "01016b027631" + "000161";
        assertEquals(expected, Bytes.toHex(contents));
    }

    /** The A/B/C layout example of docs/formats/wal.md (LevelDB's, shifted by the file header). */
    @Test
    void layoutExampleOfTheSpec() {
        LogFixture log = new LogFixture().write(big("A", 1000)).write(big("B", 97_270)).write(big("C", 8000));
        List<int[]> chunks = chunks(log.contents());
        int[][] expected = {{16, 1000, LogFormat.FULL}, {1023, 31_754, LogFormat.FIRST},
                {32_784, 32_761, LogFormat.MIDDLE}, {65_552, 32_755, LogFormat.LAST}, {98_320, 8000, LogFormat.FULL}};
        assertEquals(expected.length, chunks.size());
        for (int i = 0; i < expected.length; i++) {
            assertArrayEquals(expected[i], chunks.get(i), "chunk " + i);
        }
        assertEquals(106_327, log.contents().length);
        verifyAll(log);
    }

    @Test
    void readWrite() {
        LogFixture log = new LogFixture().write("foo").write("bar").write("").write("xxxx");
        verifyAll(log);
        // 7-byte header per record, nothing else.
        assertEquals(HEADER + 4 * CHUNK_HEADER_SIZE + 10, log.contents().length);
    }

    @Test
    void manyBlocks() {
        LogFixture log = new LogFixture();
        for (int i = 0; i < 100_000; i++) {
            log.write(LogFixture.number(i));
        }
        verifyAll(log);
    }

    @Test
    void fragmentation() {
        LogFixture log = new LogFixture().write("small").write(big("medium", 50_000)).write(big("large", 100_000));
        verifyAll(log);
    }

    /** A record leaves 0..6 bytes in its block: too few for a chunk header, so they are zero-filled. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void marginalTrailer(int trailer) {
        LogFixture log = new LogFixture()
                .write(big("foo", BLOCK_SIZE - CHUNK_HEADER_SIZE - trailer))
                .write("")
                .write("bar");
        byte[] contents = log.contents();
        assertEquals(HEADER + BLOCK_SIZE + 2 * CHUNK_HEADER_SIZE + 3, contents.length);
        assertEquals(contents.length, log.writer.size());
        assertEquals(HEADER + BLOCK_SIZE, log.recordOffsets.get(1));
        for (int i = HEADER + BLOCK_SIZE - trailer; i < HEADER + BLOCK_SIZE; i++) {
            assertEquals(0, contents[i], "trailer byte " + i);
        }
        verifyAll(log);
    }

    /** Exactly a chunk header left: the next record starts there with an empty FIRST chunk. */
    @Test
    void exactlyAChunkHeaderLeftInTheBlock() {
        LogFixture log = new LogFixture()
                .write(big("foo", BLOCK_SIZE - 2 * CHUNK_HEADER_SIZE))
                .write("bar")
                .write("");
        List<int[]> chunks = chunks(log.contents());
        assertEquals(4, chunks.size());
        assertArrayEquals(new int[] {HEADER + BLOCK_SIZE - CHUNK_HEADER_SIZE, 0, LogFormat.FIRST}, chunks.get(1));
        assertArrayEquals(new int[] {HEADER + BLOCK_SIZE, 3, LogFormat.LAST}, chunks.get(2));
        assertArrayEquals(new int[] {HEADER + BLOCK_SIZE + 10, 0, LogFormat.FULL}, chunks.get(3));
        verifyAll(log);
    }

    @Test
    void recordsAroundTheBlockSize() {
        LogFixture log = new LogFixture();
        int[] sizes = {BLOCK_SIZE - CHUNK_HEADER_SIZE, BLOCK_SIZE - CHUNK_HEADER_SIZE - 1,
                BLOCK_SIZE - CHUNK_HEADER_SIZE + 1, BLOCK_SIZE, 2 * (BLOCK_SIZE - CHUNK_HEADER_SIZE),
                3 * BLOCK_SIZE + 5, 0, 1};
        for (int i = 0; i < sizes.length; i++) {
            log.write(big("r" + i + "-", sizes[i]));
        }
        verifyAll(log);
        // The first record fills block 0 exactly with one FULL chunk; the second starts block 1.
        List<int[]> chunks = chunks(log.contents());
        assertArrayEquals(new int[] {HEADER, BLOCK_SIZE - CHUNK_HEADER_SIZE, LogFormat.FULL}, chunks.get(0));
        assertEquals(HEADER + BLOCK_SIZE, chunks.get(1)[0]);
    }

    @Test
    void recordSpanningManyBlocksIsCutIntoFirstMiddlesLast() {
        LogFixture log = new LogFixture().write(big("span", 3 * BLOCK_SIZE));
        List<int[]> chunks = chunks(log.contents());
        int[] types = chunks.stream().mapToInt(c -> c[2]).toArray();
        assertArrayEquals(new int[] {LogFormat.FIRST, LogFormat.MIDDLE, LogFormat.MIDDLE, LogFormat.LAST}, types);
        for (int i = 0; i < chunks.size(); i++) {
            assertEquals(LogFixture.blockStart(i), chunks.get(i)[0]);
        }
        verifyAll(log);
    }

    @Test
    void randomRecords() {
        long seed = TestSeeds.seed("LogTest.randomRecords");
        Random rnd = new Random(seed);
        LogFixture log = new LogFixture();
        for (int i = 0; i < 500; i++) {
            int n = rnd.nextInt(10) == 0 ? rnd.nextInt(3 * BLOCK_SIZE) : rnd.nextInt(200);
            byte[] r = new byte[n];
            rnd.nextBytes(r);
            log.write(r);
        }
        verifyAll(log);
    }

    @Test
    void manifestKindRoundTripsAndIsNotAWal() throws IOException {
        LogFixture log = new LogFixture(FileHeader.KIND_MANIFEST).write("edit-1").write(big("edit-2", 40_000));
        byte[] contents = log.contents();
        List<byte[]> read = readAll(new LogReader(contents, PATH, FileHeader.KIND_MANIFEST));
        assertEquals(2, read.size());
        assertArrayEquals(log.records.get(1), read.get(1));
        CorruptionException e = assertThrows(CorruptionException.class, () -> reader(contents));
        assertEquals(PATH, e.file());
        assertEquals(8, e.offset());
    }

    @Test
    void headerOfAnotherVersionOrGarbageIsCorruption() {
        byte[] v2 = FileHeader.encode(FileHeader.KIND_WAL, 2);
        assertEquals(10, assertThrows(CorruptionException.class, () -> reader(v2)).offset());
        byte[] garbage = new byte[HEADER + 10];
        Arrays.fill(garbage, (byte) 'x');
        assertEquals(0, assertThrows(CorruptionException.class, () -> reader(garbage)).offset());
        byte[] flipped = new LogFixture().write("foo").contents();
        flipped[3] ^= 1;
        assertThrows(CorruptionException.class, () -> reader(flipped));
    }

    /** A crash before the header reached the disk leaves an empty, short or zeroed file: a torn empty log. */
    @Test
    void logTornBeforeItsHeaderIsEmpty() {
        byte[] header = FileHeader.encode(FileHeader.KIND_WAL, LogFormat.VERSION);
        for (byte[] contents : List.of(new byte[0], Arrays.copyOf(header, 5), Arrays.copyOf(header, HEADER - 1),
                new byte[HEADER - 1], new byte[HEADER], new byte[3 * BLOCK_SIZE])) {
            LogReader r = reader(contents);
            assertNull(r.next());
            assertEquals(0, r.tornTailOffset());
            assertEquals(0, r.validLength());
        }
        byte[] shortGarbage = {1, 2, 3};
        assertThrows(CorruptionException.class, () -> reader(shortGarbage));
    }

    @Test
    void writerDelegatesFlushSyncAndClose() throws IOException {
        LogFixture log = new LogFixture().write("foo");
        assertEquals(0, log.file.flushes);
        log.writer.flush();
        log.writer.sync();
        log.writer.sync();
        assertEquals(1, log.file.flushes);
        assertEquals(2, log.file.syncs);
        log.writer.close();
        log.writer.close();
        assertTrue(log.file.closed);
        assertThrows(IllegalStateException.class, () -> log.writer.addRecord(new byte[1], 0, 1));
    }

    @Test
    void addRecordHonoursOffsetAndLength() throws IOException {
        LogFixture log = new LogFixture();
        log.writer.addRecord(bytes("xxhelloyy"), 2, 5);
        assertArrayEquals(bytes("hello"), reader(log.contents()).next());
        assertThrows(IndexOutOfBoundsException.class, () -> log.writer.addRecord(new byte[4], 2, 3));
    }

    /** After a failed append the log may end in half a record; nothing may be appended after it. */
    @Test
    void writerRefusesRecordsAfterAFailedAppend() {
        LogFixture log = new LogFixture().write("first");
        log.file.failAfter(log.file.size() + 100);
        assertThrows(IOException.class, () -> log.writer.addRecord(new byte[BLOCK_SIZE * 2], 0, BLOCK_SIZE * 2));
        log.file.failAfter(Long.MAX_VALUE);
        assertThrows(IOException.class, () -> log.writer.addRecord(bytes("second"), 0, 6));
        assertThrows(IOException.class, log.writer::sync);
        LogReader r = reader(log.contents());
        assertArrayEquals(bytes("first"), r.next());
        assertNull(r.next());
        assertEquals(HEADER + CHUNK_HEADER_SIZE + 5, r.tornTailOffset());
    }

    /** Reads {@code log} back and checks every record, its offset and the clean end. */
    static void verifyAll(LogFixture log) {
        byte[] contents = log.contents();
        assertEquals(contents.length, log.writer.size());
        LogReader r = reader(contents);
        for (int i = 0; i < log.records.size(); i++) {
            byte[] got = r.next();
            assertArrayEquals(log.records.get(i), got, "record " + i);
            assertEquals(log.recordOffsets.get(i), r.lastRecordOffset(), "offset of record " + i);
            assertEquals(log.recordEnds.get(i), r.validLength(), "valid length after record " + i);
        }
        assertNull(r.next());
        assertNull(r.next());
        assertEquals(-1, r.tornTailOffset());
        assertEquals(contents.length, r.validLength());
    }
}
