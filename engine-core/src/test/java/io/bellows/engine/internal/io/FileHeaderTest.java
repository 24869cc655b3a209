package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CorruptionException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Pins the worked example of docs/formats/header.md and the refusals it lists. */
class FileHeaderTest {
    private static final Path FILE = Path.of("/db/000001.log");

    private static byte[] hex(String s) {
        String[] parts = s.trim().split("\\s+");
        byte[] b = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            b[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return b;
    }

    @Test
    void workedExampleOfTheSpec() {
        byte[] walV1 = hex("42 45 4c 4c 4f 57 53 21  01 00  01 00  1f 68 e9 4f");
        assertArrayEquals(walV1, FileHeader.encode(FileHeader.KIND_WAL, 1));
        assertEquals(1, FileHeader.check(walV1, 0, 16, FILE, FileHeader.KIND_WAL, 1, 1));
        assertArrayEquals(hex("42 45 4c 4c 4f 57 53 21  03 00  01 00  61 ee e7 8c"),
                FileHeader.encode(FileHeader.KIND_SSTABLE, 1));
    }

    @Test
    void readsAtAnOffsetAndWithinTheVersionRange() {
        byte[] b = new byte[20];
        System.arraycopy(FileHeader.encode(FileHeader.KIND_MANIFEST, 3), 0, b, 4, 16);
        assertEquals(3, FileHeader.check(b, 4, 16, FILE, FileHeader.KIND_MANIFEST, 1, 3));
    }

    @Test
    void refusesShortDamagedForeignAndOutOfRangeHeaders() {
        byte[] good = FileHeader.encode(FileHeader.KIND_SSTABLE, 2);
        assertRefused(good, 15, FileHeader.KIND_SSTABLE, 1, 2, "too short");
        byte[] magic = good.clone();
        magic[4] = 'P';
        assertRefused(magic, 16, FileHeader.KIND_SSTABLE, 1, 2, "bad magic");
        byte[] flipped = good.clone();
        flipped[10] ^= 1;
        assertRefused(flipped, 16, FileHeader.KIND_SSTABLE, 1, 2, "checksum");
        assertRefused(good, 16, FileHeader.KIND_WAL, 1, 2, "file kind 3, expected 1");
        assertRefused(good, 16, FileHeader.KIND_SSTABLE, 1, 1, "format version 2 is not supported");
        assertRefused(good, 16, FileHeader.KIND_SSTABLE, 3, 4, "format version 2 is not supported");
    }

    private static void assertRefused(byte[] b, int len, int kind, int min, int max, String why) {
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> FileHeader.check(b, 0, len, FILE, kind, min, max));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertEquals(FILE, e.file());
    }
}
