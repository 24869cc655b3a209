package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.key.Lookup;
import io.bellows.engine.internal.metrics.EngineCounters;
import java.io.IOException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Pins the format: the worked example of docs/formats/sstable.md, byte for byte. */
class TableSpecExampleTest {
    static final String EXAMPLE = ""
            // file header
            + "42454c4c4f575321" + "0300" + "0200" + "1e55da5d"
            // data block: three entries, restarts [0, 30], trailer
            + "000d00" + "6170706c65" + "0007000000000000"
            + "050803" + "0105000000000000" + "726564"
            + "000f01" + "61707269636f74" + "0103000000000000" + "78"
            + "00000000" + "1e000000" + "02000000" + "00" + "de3ef2ea"
            // filter block: 64 bits, k = 6, trailer
            + "2129001320000d00" + "06" + "00" + "f8fa9667"
            // properties block, trailer
            + "09" + "64656c6574696f6e73" + "01" + "01"
            + "07" + "656e7472696573" + "01" + "03"
            + "0b" + "6c6172676573742e6b6579" + "0f" + "61707269636f74" + "0103000000000000"
            + "0d" + "7261772e6b65792e6279746573" + "01" + "29"
            + "0f" + "7261772e76616c75652e6279746573" + "01" + "04"
            + "0c" + "736d616c6c6573742e6b6579" + "0d" + "6170706c65" + "0007000000000000"
            + "00" + "faa56dff"
            // index block: one entry "b"@MAX_SEQUENCE -> (16, 61), trailer
            + "000902" + "62" + "01ffffffffffffff" + "103d" + "00000000" + "01000000" + "00" + "10d9b8d4"
            // footer
            + "5200000000000000" + "09000000" + "6000000000000000" + "6f000000" + "d400000000000000" + "16000000"
            + "02000000" + "9c983630" + "424c575441424c45";

    @Test
    void writesTheSpecExampleAndReadsItBack() throws IOException {
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder b = new TableBuilder(file, Entries.PATH, 4096, 2, 10);
        b.add("apple".getBytes(), 7, InternalKeys.KIND_DELETE, null);
        b.add("apple".getBytes(), 5, InternalKeys.KIND_PUT, "red".getBytes());
        b.add("apricot".getBytes(), 3, InternalKeys.KIND_PUT, "x".getBytes());
        b.finish();
        assertEquals(EXAMPLE, HexFormat.of().formatHex(file.bytes()));

        byte[] bytes = HexFormat.of().parseHex(EXAMPLE);
        try (TableReader t = TableReader.open(new MemFiles.Readable(bytes), Entries.PATH, 1, new BlockCache(0),
                new EngineCounters())) {
            Lookup out = new Lookup();
            assertTrue(t.get("apple".getBytes(), 6, false, out));
            assertEquals(5, out.sequence);
            assertArrayEquals("red".getBytes(), out.copyValue());
            assertEquals(3, t.properties().entries());
            assertEquals(bytes.length, t.properties().fileSize());
        }
    }

    @Test
    void schemeMetadataIsAPropertyBetweenRawValueBytesAndSmallestKey() throws IOException {
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder b = new TableBuilder(file, Entries.PATH, 4096, 2, 10);
        b.add("apple".getBytes(), 7, InternalKeys.KIND_DELETE, null);
        TableProperties written = b.finish(new byte[] {1, 2, 3});
        String hex = HexFormat.of().formatHex(file.bytes());
        String property = "0f" + "736368656d652e6d65746164617461" + "03" + "010203";
        assertTrue(hex.contains("7261772e76616c75652e6279746573" + "01" + "00" + property + "0c736d616c6c6573742e6b6579"),
                hex);
        try (TableReader t = TableReader.open(new MemFiles.Readable(file.bytes()), Entries.PATH, 1, new BlockCache(0),
                new EngineCounters())) {
            assertArrayEquals(new byte[] {1, 2, 3}, t.properties().schemeMetadata());
            assertEquals(written, t.properties());
        }
    }
}
