package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.io.FileHeader;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.Entries.Entry;
import io.bellows.engine.internal.util.Checksums;
import io.bellows.engine.internal.util.Coding;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damaged tables must be refused or read exactly: never a wrong value. Every byte of a table is under
 * a checksum, so single-byte damage must also always be detected once every block has been read.
 */
class TableCorruptionTest {
    private static TableReader open(byte[] bytes) throws IOException {
        return TableReader.open(new MemFiles.Readable(bytes), Entries.PATH, 7, new BlockCache(0), new EngineCounters());
    }

    /**
     * Opens, gets and iterates a possibly damaged table, failing on any answer that differs from the
     * model. Returns whether the damage was detected (a CorruptionException naming the file).
     */
    private static boolean readsCorrectlyOrDetects(byte[] bytes, List<Entry> model, Random rnd) throws IOException {
        try (TableReader table = open(bytes)) {
            Lookup out = new Lookup();
            for (Entry e : model) {
                assertTrue(table.get(e.key(), e.seq(), false, out), "lost " + e);
                assertEquals(e.seq(), out.sequence);
                assertEquals(e.kind(), out.kind);
                if (e.kind() == InternalKeys.KIND_PUT) {
                    assertArrayEquals(e.value(), out.copyValue());
                } else {
                    assertNull(out.copyValue());
                }
            }
            for (int i = 0; i < 20; i++) {
                byte[] k = Entries.probeKey(rnd, model);
                long s = Entries.probeSeq(rnd, model);
                Entry expected = Entries.get(model, k, s);
                assertEquals(expected != null, table.get(k, s, false, out));
                if (expected != null) {
                    assertEquals(expected.seq(), out.sequence);
                }
            }
            try (InternalIterator it = table.iterator(false)) {
                it.seekToFirst();
                for (Entry e : model) {
                    TableTest.assertAt(it, e);
                    it.next();
                }
                assertFalse(it.isValid());
            }
            return false;
        } catch (CorruptionException e) {
            assertEquals(Entries.PATH, e.file());
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, "offset " + e.offset());
            return true;
        }
    }

    @Test
    void everySingleByteFlipIsDetectedAndNeverReadsWrong() throws IOException {
        long seed = TestSeeds.seed("TableCorruptionTest.everySingleByteFlipIsDetectedAndNeverReadsWrong");
        Random rnd = new Random(seed);
        List<Entry> model = Entries.random(rnd, 60, 8);
        byte[] good = Entries.buildTable(model, 128, 4, 10);
        assertFalse(readsCorrectlyOrDetects(good, model, rnd));
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= (byte) (1 + rnd.nextInt(255));
            assertTrue(readsCorrectlyOrDetects(bad, model, rnd), "undetected flip at offset " + i);
        }
    }

    @Test
    void sampledDamageInALargerTableNeverReadsWrong() throws IOException {
        long seed = TestSeeds.seed("TableCorruptionTest.sampledDamageInALargerTableNeverReadsWrong");
        Random rnd = new Random(seed);
        List<Entry> model = Entries.random(rnd, 3000, 100);
        byte[] good = Entries.buildTable(model, 1024, 16, 10);
        for (int i = 0; i < 150; i++) {
            byte[] bad = good.clone();
            int at = rnd.nextInt(bad.length);
            if (rnd.nextBoolean()) {
                bad[at] ^= (byte) (1 << rnd.nextInt(8));
                assertTrue(readsCorrectlyOrDetects(bad, model, rnd), "undetected flip at offset " + at);
            } else {
                byte[] garbage = new byte[1 + rnd.nextInt(64)];
                rnd.nextBytes(garbage);
                int n = Math.min(garbage.length, bad.length - at);
                System.arraycopy(garbage, 0, bad, at, n);
                readsCorrectlyOrDetects(bad, model, rnd);
            }
        }
    }

    @Test
    void everyTruncationIsRefusedOnOpen() throws IOException {
        List<Entry> model = Entries.random(new Random(11), 40, 4);
        byte[] good = Entries.buildTable(model, 128, 4, 10);
        for (int len = 0; len < good.length; len++) {
            MemFiles.Readable file = new MemFiles.Readable(Arrays.copyOf(good, len));
            assertThrows(CorruptionException.class,
                    () -> TableReader.open(file, Entries.PATH, 1, new BlockCache(0), new EngineCounters()),
                    "truncated to " + len);
            assertTrue(file.closed, "a failed open closes the file");
        }
    }

    @Test
    void wrongHeaderKindOrVersionIsRefused() throws IOException {
        byte[] good = Entries.buildTable(Entries.random(new Random(12), 40, 4), 128, 4, 10);

        byte[] wal = good.clone();
        System.arraycopy(FileHeader.encode(FileHeader.KIND_WAL, 1), 0, wal, 0, FileHeader.LENGTH);
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(wal));
        assertEquals(8, e.offset());

        for (int version : new int[] {0, TableFormat.MAX_READ_VERSION + 1, 0xffff}) {
            byte[] other = good.clone();
            System.arraycopy(FileHeader.encode(FileHeader.KIND_SSTABLE, version), 0, other, 0, FileHeader.LENGTH);
            e = assertThrows(CorruptionException.class, () -> open(other));
            assertEquals(10, e.offset());
        }
    }

    @Test
    void footerVersionMustMatchTheHeader() throws IOException {
        byte[] bad = Entries.buildTable(Entries.random(new Random(13), 40, 4), 128, 4, 10);
        int footer = bad.length - TableFormat.FOOTER_LENGTH;
        Coding.putInt(bad, footer + TableFormat.FOOTER_VERSION_OFFSET, TableFormat.VERSION - 1);
        resealFooter(bad);
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(bad));
        assertEquals(footer + TableFormat.FOOTER_VERSION_OFFSET, e.offset());
    }

    @Test
    void handlesOutsideTheirRegionAreRefused() throws IOException {
        byte[] good = Entries.buildTable(Entries.random(new Random(14), 40, 4), 128, 4, 10);
        int footer = good.length - TableFormat.FOOTER_LENGTH;
        long[][] badIndexHandles = {{good.length, 10}, {footer - 10, 100}, {3, 20}, {Long.MAX_VALUE - 2, 8},
                {-5, 10}, {footer - 30, -1}};
        for (long[] h : badIndexHandles) {
            byte[] bad = good.clone();
            Coding.putLong(bad, footer + TableFormat.FOOTER_INDEX_OFFSET, h[0]);
            Coding.putInt(bad, footer + TableFormat.FOOTER_INDEX_OFFSET + 8, (int) h[1]);
            resealFooter(bad);
            assertThrows(CorruptionException.class, () -> open(bad), Arrays.toString(h));
        }
        try (TableReader table = open(good)) {
            assertThrows(CorruptionException.class, () -> table.loadDataBlock(new BlockHandle(good.length, 10), false));
            assertThrows(CorruptionException.class, () -> table.loadDataBlock(new BlockHandle(footer - 40, 10), false));
            assertThrows(CorruptionException.class, () -> table.loadDataBlock(new BlockHandle(2, 10), false));
        }
    }

    @Test
    void unknownBlockTypeIsRefusedEvenWithAValidChecksum() throws IOException {
        byte[] bad = Entries.buildTable(Entries.random(new Random(15), 40, 4), 128, 4, 10);
        int footer = bad.length - TableFormat.FOOTER_LENGTH;
        long indexOffset = Coding.getLong(bad, footer + TableFormat.FOOTER_INDEX_OFFSET);
        int indexSize = Coding.getInt(bad, footer + TableFormat.FOOTER_INDEX_OFFSET + 8);
        int typeAt = (int) indexOffset + indexSize;
        bad[typeAt] = 1;
        Coding.putInt(bad, typeAt + 1, Checksums.maskedCrc32c(bad, (int) indexOffset, indexSize + 1));
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(bad));
        assertEquals(typeAt, e.offset());
    }

    private static void resealFooter(byte[] b) {
        int footer = b.length - TableFormat.FOOTER_LENGTH;
        Coding.putInt(b, footer + TableFormat.FOOTER_CRC_OFFSET,
                Checksums.maskedCrc32c(b, footer, TableFormat.FOOTER_CRC_OFFSET));
    }
}
