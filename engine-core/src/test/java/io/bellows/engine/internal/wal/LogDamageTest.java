package io.bellows.engine.internal.wal;

import static io.bellows.engine.internal.wal.LogFixture.HEADER;
import static io.bellows.engine.internal.wal.LogFixture.PATH;
import static io.bellows.engine.internal.wal.LogFixture.big;
import static io.bellows.engine.internal.wal.LogFixture.blockStart;
import static io.bellows.engine.internal.wal.LogFixture.bytes;
import static io.bellows.engine.internal.wal.LogFixture.chunkAt;
import static io.bellows.engine.internal.wal.LogFixture.chunks;
import static io.bellows.engine.internal.wal.LogFixture.fixChecksum;
import static io.bellows.engine.internal.wal.LogFixture.readAll;
import static io.bellows.engine.internal.wal.LogFixture.reader;
import static io.bellows.engine.internal.wal.LogFixture.setType;
import static io.bellows.engine.internal.wal.LogFormat.BLOCK_SIZE;
import static io.bellows.engine.internal.wal.LogFormat.CHUNK_HEADER_SIZE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.util.Coding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damaged logs (LevelDB log_test's damage cases): damage with nothing valid after it is a torn tail,
 * cut cleanly; damage followed by any valid chunk is corruption naming the damaged offset.
 */
class LogDamageTest {
    // ---- torn tails: every complete record before the damage, then a clean null ----

    @Test
    void truncatedTrailingRecordIsATornTail() {
        byte[] log = new LogFixture().write("foo").write("bar").contents();
        assertTornTail(Arrays.copyOf(log, log.length - 1), 1, HEADER + CHUNK_HEADER_SIZE + 3);
        assertTornTail(Arrays.copyOf(log, log.length - 4), 1, HEADER + CHUNK_HEADER_SIZE + 3);
        assertTornTail(Arrays.copyOf(log, log.length - 8), 1, HEADER + CHUNK_HEADER_SIZE + 3);
        assertTornTail(Arrays.copyOf(log, log.length - 11), 0, HEADER);
    }

    /** A length cut by the end of the file is a torn tail; one the stored checksum says is complete is not. */
    @Test
    void inflatedLengthOfACompleteLastChunkIsCorruption() {
        byte[] log = new LogFixture().write("foo").contents();
        log[HEADER + 4]++;
        assertCorruption(log, 0, HEADER, "runs past the end of the file");
    }

    /** The case: the last record's bytes are all there, so a failing checksum is not a torn write. */
    @Test
    void checksumMismatchAtEndIsCorruption() {
        byte[] log = new LogFixture().write("foo").write("foo").contents();
        log[log.length - 1] ^= 0x10;
        assertCorruption(log, 1, HEADER + CHUNK_HEADER_SIZE + 3, "checksum");
    }

    @Test
    void badTypeUnexpectedMiddleOrLastAtEndAreCorruption() {
        for (int type : new int[] {0, 5, 100, LogFormat.MIDDLE, LogFormat.LAST}) {
            byte[] log = new LogFixture().write("foo").contents();
            setType(log, HEADER, type);
            assertCorruption(log, 0, HEADER, null);
        }
    }

    /** Zeroes to the end of the file from a sector boundary are space never written, even inside a chunk. */
    @Test
    void sectorAlignedZeroTailInsideAChunkIsATornTail() {
        LogFixture fixture = new LogFixture().write("foo").write(big("x", 3000));
        byte[] log = fixture.contents();
        int lastStart = fixture.recordOffsets.get(1).intValue();
        int sector = (lastStart / LogReader.SECTOR + 1) * LogReader.SECTOR;
        byte[] unwritten = log.clone();
        Arrays.fill(unwritten, sector, log.length, (byte) 0);
        assertTornTail(unwritten, 1, fixture.recordEnds.get(0));
        byte[] zeroed = log.clone();
        Arrays.fill(zeroed, sector + 1, log.length, (byte) 0);
        assertCorruption(zeroed, 1, lastStart, "checksum");
    }

    @Test
    void missingLastIsATornTail() {
        LogFixture fixture = new LogFixture().write("before").write(big("bar", 2 * BLOCK_SIZE));
        byte[] log = fixture.contents();
        List<int[]> chunks = chunks(log);
        int[] last = chunks.get(chunks.size() - 1);
        assertEquals(LogFormat.LAST, last[2]);
        assertTornTail(Arrays.copyOf(log, last[0]), 1, fixture.recordEnds.get(0));
        assertTornTail(Arrays.copyOf(log, log.length - 1), 1, fixture.recordEnds.get(0));
    }

    /** Truncating at every byte of the last record keeps every earlier record and nothing else. */
    @Test
    void truncationAtEveryOffsetOfTheLastRecord() {
        int[] lastSizes = {100, BLOCK_SIZE + 500, 2 * (BLOCK_SIZE - CHUNK_HEADER_SIZE) - 300};
        for (int lastSize : lastSizes) {
            LogFixture fixture = new LogFixture().write("a").write(big("bb", 30_000)).write("ccc");
            fixture.write(big("last", lastSize));
            byte[] log = fixture.contents();
            int prefix = fixture.recordEnds.get(2).intValue();
            int lastStart = fixture.recordOffsets.get(3).intValue();
            for (int cut = prefix; cut < log.length; cut++) {
                byte[] torn = Arrays.copyOf(log, cut);
                LogReader r = reader(torn);
                List<byte[]> read = readAll(r);
                assertEquals(3, read.size(), "cut at " + cut);
                assertArrayEquals(fixture.records.get(2), read.get(2));
                assertNull(r.next());
                boolean nothingOfTheLastRecord = cut <= lastStart || allZero(log, lastStart, cut);
                assertEquals(nothingOfTheLastRecord ? -1 : prefix, r.tornTailOffset(), "cut at " + cut);
                assertEquals(prefix, r.validLength());
            }
        }
    }

    /** Random cuts of a random log, some followed by garbage a torn write could leave. */
    @Test
    void randomTornTails() {
        long seed = TestSeeds.seed("LogDamageTest.randomTornTails");
        Random rnd = new Random(seed);
        LogFixture fixture = new LogFixture();
        for (int i = 0; i < 60; i++) {
            byte[] r = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(2 * BLOCK_SIZE) : rnd.nextInt(300)];
            rnd.nextBytes(r);
            fixture.write(r);
        }
        byte[] log = fixture.contents();
        for (int trial = 0; trial < 200; trial++) {
            int cut = HEADER + rnd.nextInt(log.length - HEADER);
            byte[] torn = Arrays.copyOf(log, cut);
            int complete = 0;
            while (complete < fixture.records.size() && fixture.recordEnds.get(complete) <= cut) {
                complete++;
            }
            int lastChunk = chunkAt(log, cut - 1) == null ? cut : chunkAt(log, cut - 1)[0];
            if (rnd.nextBoolean() && cut > lastChunk) {
                // Garbage over the cut chunk's bytes: the torn write landed noise, not data. Every
                // byte differs from the original, and a record whose bytes it reaches is no longer
                // complete, even one that ended exactly at the cut.
                int from = lastChunk + rnd.nextInt(cut - lastChunk);
                for (int i = from; i < cut; i++) {
                    torn[i] = (byte) (log[i] ^ (1 + rnd.nextInt(255)));
                }
                while (complete > 0 && fixture.recordEnds.get(complete - 1) > from) {
                    complete--;
                }
            }
            // Noise over a chunk that was complete is corruption, over a cut one a torn tail: either way the
            // reader returns exactly the records before the damage and nothing else.
            List<byte[]> read = new ArrayList<>();
            try {
                LogReader r = reader(torn);
                for (byte[] rec; (rec = r.next()) != null; ) {
                    read.add(rec);
                }
            } catch (CorruptionException e) {
                assertTrue(e.offset() >= lastChunk - CHUNK_HEADER_SIZE, "cut at " + cut + ": " + e.getMessage());
            }
            assertEquals(complete, read.size(), "cut at " + cut);
            for (int i = 0; i < complete; i++) {
                assertArrayEquals(fixture.records.get(i), read.get(i));
            }
        }
    }

    @Test
    void zeroTailIsACleanEnd() {
        for (int records : new int[] {0, 1, 3}) {
            LogFixture fixture = new LogFixture();
            for (int i = 0; i < records; i++) {
                fixture.write(big("r" + i, 20_000));
            }
            byte[] log = fixture.contents();
            for (int zeroes : new int[] {1, 6, 7, 8, 100, BLOCK_SIZE, 3 * BLOCK_SIZE + 11}) {
                byte[] padded = Arrays.copyOf(log, log.length + zeroes);
                LogReader r = reader(padded);
                assertEquals(records, readAll(r).size());
                assertEquals(-1, r.tornTailOffset(), records + " records, " + zeroes + " zeroes");
                assertEquals(log.length, r.validLength());
            }
        }
    }

    @Test
    void zeroesInsideTheLastRecordAreATornTail() {
        LogFixture fixture = new LogFixture().write("foo").write(big("x", 3 * BLOCK_SIZE));
        byte[] log = fixture.contents();
        int sector = (blockStart(1) / LogReader.SECTOR + 1) * LogReader.SECTOR;
        Arrays.fill(log, sector, log.length, (byte) 0);
        assertTornTail(log, 1, fixture.recordEnds.get(0));
        byte[] zeroedMiddles = fixture.contents();
        Arrays.fill(zeroedMiddles, blockStart(1), log.length, (byte) 0);
        assertTornTail(zeroedMiddles, 1, fixture.recordEnds.get(0));
    }

    // ---- corruption: damage followed by a valid chunk ----

    @Test
    void checksumMismatchFollowedByARecordIsCorruption() {
        byte[] log = new LogFixture().write("foo").write("bar").contents();
        log[HEADER + CHUNK_HEADER_SIZE] ^= 1;
        assertCorruption(log, 0, HEADER, "checksum");
    }

    @Test
    void badTypeFollowedByARecordIsCorruption() {
        byte[] log = new LogFixture().write("foo").write("bar").contents();
        setType(log, HEADER, 100);
        assertCorruption(log, 0, HEADER, "bad chunk type 100");
    }

    @Test
    void unexpectedMiddleOrLastIsCorruption() {
        for (int type : new int[] {LogFormat.MIDDLE, LogFormat.LAST}) {
            byte[] log = new LogFixture().write("foo").write("bar").write("baz").contents();
            int second = HEADER + CHUNK_HEADER_SIZE + 3;
            setType(log, second, type);
            assertCorruption(log, 1, second, "without a FIRST");
        }
    }

    @Test
    void unexpectedFullTypeIsCorruption() {
        byte[] log = new LogFixture().write("foo").write("bar").contents();
        setType(log, HEADER, LogFormat.FIRST);
        assertCorruption(log, 0, HEADER, "no LAST chunk; a FULL chunk follows");
    }

    @Test
    void unexpectedFirstTypeIsCorruption() {
        byte[] log = new LogFixture().write("foo").write(big("bar", 100_000)).contents();
        setType(log, HEADER, LogFormat.FIRST);
        assertCorruption(log, 0, HEADER, "no LAST chunk; a FIRST chunk follows");
    }

    @Test
    void lengthPastTheBlockFollowedByALaterBlockIsCorruption() {
        LogFixture fixture = new LogFixture().write(big("foo", BLOCK_SIZE / 2)).write(big("bar", BLOCK_SIZE));
        byte[] log = fixture.contents();
        Coding.putShort(log, HEADER + 4, 0xffff);
        assertCorruption(log, 0, HEADER, "past the end of its block");
    }

    /** A damaged length field cannot hide the records after it in the same block. */
    @Test
    void inflatedLengthDoesNotHideLaterRecordsInTheBlock() {
        LogFixture fixture = new LogFixture().write(big("a", 10)).write(big("b", 100)).write("c");
        byte[] log = fixture.contents();
        Coding.putShort(log, HEADER + 4, 12);
        assertCorruption(log, 0, HEADER, "checksum");
        Coding.putShort(log, HEADER + 4, 10 + CHUNK_HEADER_SIZE + 100 + CHUNK_HEADER_SIZE + 1);
        assertCorruption(log, 0, HEADER, "checksum");
    }

    @Test
    void zeroedRecordFollowedByRecordsIsCorruption() {
        LogFixture fixture = new LogFixture();
        for (int i = 0; i < 5; i++) {
            fixture.write(big("r" + i, 50));
        }
        byte[] log = fixture.contents();
        int third = fixture.recordOffsets.get(2).intValue();
        Arrays.fill(log, third, fixture.recordEnds.get(2).intValue(), (byte) 0);
        assertCorruption(log, 2, third, "zeroed");
    }

    @Test
    void zeroedBlockFollowedByABlockIsCorruption() {
        LogFixture fixture = new LogFixture();
        for (int i = 0; i < 300; i++) {
            fixture.write(big("r" + i, 333));
        }
        byte[] log = fixture.contents();
        Arrays.fill(log, blockStart(1), blockStart(2), (byte) 0);
        int firstInBlock1 = fixture.recordOffsets.stream().filter(o -> o > blockStart(1)).findFirst().orElseThrow()
                .intValue();
        int complete = (int) fixture.recordEnds.stream().filter(e -> e <= blockStart(1)).count();
        CorruptionException e = assertCorruption(log, complete, blockStart(1), null);
        assertTrue(e.offset() < firstInBlock1);
    }

    /** LevelDB's ErrorJoinsRecords: a wiped block between two multi-block records must not join them. */
    @Test
    void wipedMiddleBlockIsCorruption() {
        LogFixture fixture = new LogFixture()
                .write(big("foo", BLOCK_SIZE))
                .write(big("bar", BLOCK_SIZE))
                .write("correct");
        byte[] log = fixture.contents();
        Arrays.fill(log, blockStart(1), blockStart(2), (byte) 'x');
        assertCorruption(log, 0, blockStart(1), null);
    }

    /** A flipped byte anywhere in any record, the last one included, is corruption at its chunk. */
    @Test
    void flippedByteInAMiddleRecordIsCorruptionAtItsChunk() {
        long seed = TestSeeds.seed("LogDamageTest.flippedByteInAMiddleRecordIsCorruptionAtItsChunk");
        Random rnd = new Random(seed);
        LogFixture fixture = new LogFixture();
        for (int i = 0; i < 40; i++) {
            byte[] r = new byte[rnd.nextInt(5) == 0 ? rnd.nextInt(2 * BLOCK_SIZE) : rnd.nextInt(500)];
            rnd.nextBytes(r);
            fixture.write(r);
        }
        byte[] log = fixture.contents();
        for (int trial = 0; trial < 300; trial++) {
            int record = rnd.nextInt(fixture.records.size());
            int start = fixture.recordOffsets.get(record).intValue();
            int at = start + rnd.nextInt(fixture.recordEnds.get(record).intValue() - start);
            int[] chunk = chunkAt(log, at);
            if (chunk == null) {
                continue; // a block trailer carries nothing
            }
            byte[] damaged = log.clone();
            damaged[at] ^= (byte) (1 << rnd.nextInt(8));
            CorruptionException e = assertCorruption(damaged, record, chunk[0], null);
            assertEquals(PATH, e.file(), "flip at " + at);
        }
    }

    /** Skipping corruption (SKIP_ANY_CORRUPTED_RECORDS) resumes at the next valid chunk and counts what it passed. */
    @Test
    void skipCorruptionResumesAtTheNextValidChunk() {
        LogFixture fixture = new LogFixture();
        for (int i = 0; i < 5; i++) {
            fixture.write(big("r" + i, i == 2 ? 2 * BLOCK_SIZE : 100));
        }
        byte[] log = fixture.contents();
        int third = fixture.recordOffsets.get(2).intValue();
        log[blockStart(1) + 20] ^= 4;
        LogReader r = reader(log);
        assertArrayEquals(fixture.records.get(0), r.next());
        assertArrayEquals(fixture.records.get(1), r.next());
        assertThrows(CorruptionException.class, r::next);
        long skipped = 0;
        byte[] next = null;
        while (next == null) {
            skipped += r.skipCorruption();
            try {
                next = r.next();
            } catch (CorruptionException e) {
                // the rest of the broken record's chunks, each skipped in turn
            }
        }
        assertArrayEquals(fixture.records.get(3), next);
        assertArrayEquals(fixture.records.get(4), r.next());
        assertNull(r.next());
        assertEquals(fixture.recordOffsets.get(3) - third, skipped);
        assertThrows(IllegalStateException.class, r::skipCorruption);
    }

    @Test
    void corruptionIsThrownAgainOnEveryCall() {
        byte[] log = new LogFixture().write("foo").write("bar").contents();
        log[HEADER] ^= 1;
        LogReader r = reader(log);
        CorruptionException first = assertThrows(CorruptionException.class, r::next);
        assertSame(first, assertThrows(CorruptionException.class, r::next));
    }

    private static void assertTornTail(byte[] log, int records, long tornAt) {
        LogReader r = reader(log);
        List<byte[]> read = readAll(r);
        assertEquals(records, read.size());
        assertNull(r.next());
        assertEquals(tornAt, r.tornTailOffset());
        assertEquals(tornAt, r.validLength());
    }

    /** Reads {@code records} intact records, then expects corruption at {@code offset}. */
    private static CorruptionException assertCorruption(byte[] log, int records, int offset, String message) {
        LogReader r = reader(log);
        for (int i = 0; i < records; i++) {
            assertNotNull(r.next(), "record " + i);
        }
        CorruptionException e = assertThrows(CorruptionException.class, r::next);
        assertEquals(offset, e.offset(), e.getMessage());
        if (message != null) {
            assertTrue(e.getMessage().contains(message), e.getMessage());
        }
        return e;
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
