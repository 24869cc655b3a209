package io.bellows.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemStoreFootprintTest {
    @Test
    void flatteningFormsEndOnAnInMemoryFlushAndFillStopsShortOfADiskFlush() {
        MemStoreFootprint.Settings s = MemStoreFootprint.Settings.parse(new String[] {"--num=1000",
                "--memstore_size=1M", "--active_fraction=0.05", "--forms=flat,skiplist"});
        assertEquals(List.of(MemStoreFootprint.Form.FLAT, MemStoreFootprint.Form.SKIPLIST), s.forms());
        // A x size = 52428 bytes = 452 cells of 116 bytes (the 452nd reaches it); 1000 rounds up to 3 pushes.
        assertEquals(452, s.cellsPerPush(MemStoreFootprint.Form.FLAT));
        assertEquals(1356, s.entries(MemStoreFootprint.Form.FLAT));
        assertEquals(1000, s.entries(MemStoreFootprint.Form.SKIPLIST));
        MemStoreFootprint.Settings fill = MemStoreFootprint.Settings.parse(new String[] {"--memstore_size=1M",
                "--fill=true", "--value_size=84"});
        assertEquals(10485, fill.entries(MemStoreFootprint.Form.SERIALIZED), "one cell short of 1 MiB of 100-byte cells");
        assertThrows(FlagException.class, () -> MemStoreFootprint.Settings.parse(new String[] {"--forms=tree"}));
        assertThrows(FlagException.class, () -> MemStoreFootprint.Settings.parse(new String[] {"--nmu=3"}));
    }

    @Test
    void everyEntryOfAFlatteningFormEndsUpFlattened() {
        MemStoreFootprint.Settings s = MemStoreFootprint.Settings.parse(new String[] {"--num=3000",
                "--memstore_size=1M"});
        for (MemStoreFootprint.Form f : List.of(MemStoreFootprint.Form.FLAT, MemStoreFootprint.Form.SERIALIZED)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            MemStoreFootprint.measure(s, f, new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String row = bytes.toString(StandardCharsets.UTF_8);
            assertTrue(row.startsWith(f.flagName + " "), row);
            assertFalse(row.contains("note:"), row);
            assertTrue(row.trim().endsWith(" 0"), "no entry left in the active skiplist: " + row);
        }
    }
}
