package io.bellows.engine.internal.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.CorruptionException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class VersionEditTest {
    @Test
    void roundTripsEveryField() {
        VersionEdit e = new VersionEdit().scheme("LEVELED").logNumber(8).nextFileNumber(9).lastSequence(40)
                .deleteFile(1, 3).addFile(0, 0, new FileMeta(7, 4096, "apple".getBytes(), 12, "pear".getBytes(), 3, 40, 40))
                .addFile(2, 77, new FileMeta(11, 1, new byte[0], 1, new byte[] {(byte) 0xff}, 2, 1, 2))
                .schemeRecord(new byte[] {1, 2, 3});
        VersionEdit d = VersionEdit.decode(e.encode(), Path.of("m"), 0);
        assertEquals("LEVELED", d.scheme());
        assertEquals(8, d.logNumber());
        assertEquals(9, d.nextFileNumber());
        assertEquals(40, d.lastSequence());
        assertEquals(1, d.deletedFiles().size());
        assertEquals(new VersionEdit.DeletedFile(1, 3), d.deletedFiles().get(0));
        assertEquals(2, d.newFiles().size());
        FileMeta m = d.newFiles().get(0).meta();
        assertEquals(7, m.number);
        assertArrayEquals("apple".getBytes(), m.smallestKey);
        assertEquals(3, m.largestSeq);
        assertEquals(77, d.newFiles().get(1).placement());
        assertArrayEquals(new byte[] {1, 2, 3}, d.schemeRecords().get(0));
    }

    @Test
    void workedExampleOfTheSpecEncodesAsDocumented() {
        VersionEdit e = new VersionEdit().logNumber(8).nextFileNumber(9).lastSequence(40)
                .addFile(0, new FileMeta(7, 4096, "apple".getBytes(), 12, "pear".getBytes(), 3, 40, 40));
        byte[] expect = {0x02, 0x08, 0x03, 0x09, 0x04, 0x28, 0x06, 0x00, 0x00, 0x07, (byte) 0x80, 0x20,
            0x05, 'a', 'p', 'p', 'l', 'e', 0x0c, 0x04, 'p', 'e', 'a', 'r', 0x03, 0x28, 0x28};
        assertArrayEquals(expect, e.encode(), Arrays.toString(e.encode()));
    }

    @Test
    void malformedRecordsAreCorruption() {
        byte[] good = new VersionEdit().scheme("LEVELED").logNumber(3).encode();
        // Every cut inside a field (the scheme field ends at 9, a valid shorter record) must be refused.
        for (int cut = 1; cut < good.length; cut++) {
            if (cut == 9) {
                continue;
            }
            byte[] b = Arrays.copyOf(good, cut);
            assertThrows(CorruptionException.class, () -> VersionEdit.decode(b, Path.of("MANIFEST-1"), 16));
        }
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> VersionEdit.decode(new byte[] {99, 1}, Path.of("MANIFEST-1"), 16));
        assertEquals(16, e.offset());
    }
}
