package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bellows.engine.Compression;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.key.InternalKeys;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.Entries.Entry;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reader built from what its writer kept ({@link TableBuilder#written}) is the reader the file opens
 * into, without reading the file: same properties, filter and index, same answers.
 */
class WrittenTableTest {
    private record Built(byte[] bytes, TableReader.Written written) {}

    private static Built build(List<Entry> model, int blockSize, int bloomBits, Compression c, TableBuildBuffers buffers)
            throws IOException {
        MemFiles.Writable file = new MemFiles.Writable();
        TableBuilder b = new TableBuilder(file, Entries.PATH, blockSize, 16, bloomBits, c, buffers);
        for (Entry e : model) {
            b.add(e.key(), e.seq(), e.kind(), e.kind() == InternalKeys.KIND_PUT ? e.value() : null);
        }
        b.finish("meta".getBytes());
        return new Built(file.bytes(), b.written());
    }

    @Test
    void aWrittenReaderMatchesTheOpenedOneAndReadsNothingToOpen() throws IOException {
        Random rnd = new Random(TestSeeds.seed("WrittenTableTest"));
        Object[][] configs = {{4096, 10, Compression.NONE}, {256, 10, Compression.LZ4}, {1024, 0, Compression.NONE}};
        TableBuildBuffers buffers = new TableBuildBuffers();
        for (Object[] c : configs) {
            List<Entry> model = Entries.random(rnd, 3000, 100);
            Built first = build(model, (int) c[0], (int) c[1], (Compression) c[2], buffers);
            // The next table of a job reuses the buffers: the first one's parts must be copies.
            build(Entries.random(rnd, 2000, 10), (int) c[0], (int) c[1], (Compression) c[2], buffers);

            EngineCounters counters = new EngineCounters();
            try (TableReader written = TableReader.open(first.written(), new MemFiles.Readable(first.bytes()),
                    Entries.PATH, 42, new BlockCache(1 << 20), counters);
                    TableReader opened = TableReader.open(new MemFiles.Readable(first.bytes()), Entries.PATH, 42,
                            new BlockCache(1 << 20), new EngineCounters())) {
                assertEquals(0, counters.blockReads.sum(), "a written reader reads nothing to open");
                assertSameProperties(opened.properties(), written.properties());
                assertEquals(opened.filterBytes(), written.filterBytes());
                assertEquals(opened.dataBytes(), written.dataBytes());
                assertEquals(opened.dataBlocks(), written.dataBlocks());
                TableTest.checkAgainstModel(written, model, rnd, 1000);
            }
        }
    }

    @Test
    void onlyAFinishedBuilderHasWrittenParts() throws IOException {
        TableBuilder b = new TableBuilder(new MemFiles.Writable(), Entries.PATH, 4096, 16, 10);
        b.add("k".getBytes(), 1, InternalKeys.KIND_PUT, "v".getBytes());
        assertThrows(IllegalStateException.class, b::written);
        b.abandon();
        assertThrows(IllegalStateException.class, b::written);
    }

    private static void assertSameProperties(TableProperties expected, TableProperties actual) {
        assertEquals(expected.fileSize(), actual.fileSize());
        assertEquals(expected.entries(), actual.entries());
        assertEquals(expected.deletions(), actual.deletions());
        assertArrayEquals(expected.smallestKey(), actual.smallestKey());
        assertEquals(expected.smallestSeq(), actual.smallestSeq());
        assertArrayEquals(expected.largestKey(), actual.largestKey());
        assertEquals(expected.largestSeq(), actual.largestSeq());
        assertEquals(expected.rawKeyBytes(), actual.rawKeyBytes());
        assertEquals(expected.rawValueBytes(), actual.rawValueBytes());
        assertArrayEquals(expected.schemeMetadata(), actual.schemeMetadata());
    }
}
