package io.bellows.engine.internal.compaction.triad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.internal.compaction.TableAnnotator;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The worked example of docs/formats/sstable.md, "TRIAD table sketch", byte for byte. */
class TableSketchFormatTest {
    private static final String EXAMPLE = "0103" + "0201070c03080300" + "8414b608" + "4355ff0a" + "be4fd70a";

    @Test
    void sketchOfThreeKeysIsTheDocumentedBytes() {
        Sketches sketches = new Sketches();
        TableAnnotator a = sketches.annotator();
        for (String k : new String[] {"apple", "apricot", "banana"}) {
            a.addKey(k.getBytes(StandardCharsets.UTF_8));
        }
        byte[] meta = a.finish(7);
        assertEquals(EXAMPLE, HexFormat.of().formatHex(meta));
        TableSketch s = TableSketch.decode(HexFormat.of().parseHex(EXAMPLE));
        assertEquals(3, s.keys);
        assertEquals(3.0, s.hll.getEstimate(), 0.01);
        assertEquals(3, sketches.get(7).keys, "the annotator keeps the sketch of the finished table");
    }

    @Test
    void theAnnotatorStartsAfreshForEachTable() {
        Sketches sketches = new Sketches();
        TableAnnotator a = sketches.annotator();
        a.addKey(new byte[] {1});
        a.addKey(new byte[] {2});
        a.finish(1);
        a.addKey(new byte[] {3});
        a.addKey(new byte[0]);
        byte[] second = a.finish(2);
        assertEquals(1, sketches.get(2).keys, "the empty key is left out of count and sketch alike");
        assertEquals(1.0, TableSketch.decode(second).hll.getEstimate(), 0.01);
    }

    @Test
    void otherBytesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> TableSketch.decode(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> TableSketch.decode(HexFormat.of().parseHex("02" + EXAMPLE
                .substring(2))));
        assertThrows(IllegalArgumentException.class, () -> TableSketch.decode(HexFormat.of().parseHex("0103ff")));
        byte[] wrongK = HexFormat.of().parseHex(EXAMPLE);
        wrongK[5] = 10;
        assertThrows(IllegalArgumentException.class, () -> TableSketch.decode(wrongK));
        assertArrayEquals(HexFormat.of().parseHex(EXAMPLE), TableSketch.decode(HexFormat.of().parseHex(EXAMPLE))
                .encode());
    }
}
