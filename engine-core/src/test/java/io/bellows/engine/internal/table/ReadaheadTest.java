package io.bellows.engine.internal.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.EngineIOException;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.internal.iter.InternalIterator;
import io.bellows.engine.internal.metrics.EngineCounters;
import io.bellows.engine.internal.table.Entries.Entry;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A scan reads a table in large spans, not block by block (direct I/O reads nothing ahead), and reads
 * the same entries as without readahead; a seek that reads one block reads only that block.
 */
class ReadaheadTest {
    /** Counts the reads that reach the file and the bytes they ask for. */
    private static final class CountingFile extends MemFiles.Readable {
        int reads;
        long bytes;

        CountingFile(byte[] data) {
            super(data);
        }

        @Override
        public void read(long position, byte[] dst, int off, int len) throws IOException {
            reads++;
            bytes += len;
            super.read(position, dst, off, len);
        }
    }

    private static List<Entry> model;
    private static byte[] table;

    private static synchronized byte[] table() throws IOException {
        if (table == null) {
            Random rnd = new Random(TestSeeds.seed("ReadaheadTest"));
            model = Entries.random(rnd, 40_000, 3);
            table = Entries.buildTable(model, 4096, 16, 10);
        }
        return table;
    }

    private static int scan(TableReader reader, boolean fillCache) {
        int n = 0;
        try (InternalIterator it = reader.iterator(fillCache)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                TableTest.assertAt(it, model.get(n));
                n++;
            }
        }
        return n;
    }

    @Test
    void anUncachedScanReadsWholeSpans() throws IOException {
        CountingFile file = new CountingFile(table());
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters())) {
            int blocks = reader.dataBlocks();
            assertTrue(blocks > 200, blocks + " blocks: too few to show readahead");
            int atOpen = file.reads;
            assertEquals(model.size(), scan(reader, false));
            int spans = file.reads - atOpen;
            long dataBytes = table.length;
            assertTrue(spans <= dataBytes / Readahead.MAX_SPAN + 2,
                    spans + " reads for " + blocks + " blocks of " + dataBytes + " bytes");
        }
    }

    /** After its first span a scan's reads all run ahead of it, on the read-ahead threads. */
    @Test
    void aScanReadsItsNextSpanAhead() throws IOException {
        byte[] bytes = table();
        Map<Boolean, AtomicInteger> byThread = new ConcurrentHashMap<>();
        MemFiles.Readable file = new MemFiles.Readable(bytes) {
            @Override
            public void read(long position, byte[] dst, int off, int len) throws IOException {
                boolean ahead = Thread.currentThread().getName().startsWith("bellows-read-ahead-");
                byThread.computeIfAbsent(ahead, a -> new AtomicInteger()).incrementAndGet();
                super.read(position, dst, off, len);
            }
        };
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters())) {
            int atOpen = byThread.getOrDefault(false, new AtomicInteger()).get();
            assertEquals(model.size(), scan(reader, false));
            int caller = byThread.get(false).get() - atOpen;
            int ahead = byThread.getOrDefault(true, new AtomicInteger()).get();
            assertEquals(1, caller, "reads in the scan's thread; " + ahead + " ahead");
            assertTrue(ahead >= bytes.length / Readahead.MAX_SPAN - 1, ahead + " spans read ahead");
        }
    }

    /** Any failure of a read ahead, an Error too, is the scan's to meet in its own read: here that read succeeds. */
    @Test
    void anErrorReadingAheadIsReadAgainByTheScan() throws IOException {
        byte[] bytes = table();
        AtomicInteger thrown = new AtomicInteger();
        MemFiles.Readable file = new MemFiles.Readable(bytes) {
            @Override
            public void read(long position, byte[] dst, int off, int len) throws IOException {
                if (Thread.currentThread().getName().startsWith("bellows-read-ahead-") && thrown.get() < 2) {
                    thrown.incrementAndGet();
                    Arrays.fill(dst, off, off + len, (byte) 0x55);
                    throw new OutOfMemoryError("injected");
                }
                super.read(position, dst, off, len);
            }
        };
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters())) {
            assertEquals(model.size(), scan(reader, false));
            assertEquals(2, thrown.get(), "errors injected");
        }
    }

    /** Spans of closed iterators are reused by others, on other tables, and never show their old bytes. */
    @Test
    void spansPassFromClosedIteratorsToOthers() throws IOException {
        Random rnd = new Random(TestSeeds.seed("ReadaheadTest.spansPassFromClosedIteratorsToOthers"));
        List<Entry> otherModel = Entries.random(rnd, 30_000, 2);
        byte[] other = Entries.buildTable(otherModel, 4096, 16, 10);
        try (TableReader a = TableReader.open(new MemFiles.Readable(table()), Entries.PATH, 7, new BlockCache(0),
                new EngineCounters());
                TableReader b = TableReader.open(new MemFiles.Readable(other), Entries.PATH, 8, new BlockCache(0),
                        new EngineCounters())) {
            for (int round = 0; round < 3; round++) {
                assertEquals(model.size(), scan(a, false));
                try (InternalIterator ia = a.iterator(false); InternalIterator ib = b.iterator(false)) {
                    ia.seekToFirst();
                    ib.seekToFirst();
                    for (int i = 0; i < otherModel.size(); i++) {
                        TableTest.assertAt(ib, otherModel.get(i));
                        ib.next();
                        if (i < model.size()) {
                            TableTest.assertAt(ia, model.get(i));
                            ia.next();
                        }
                    }
                    assertFalse(ib.isValid());
                }
            }
        }
    }

    /**
     * A span read that fails after writing part of the span must not leave those bytes to be served: the
     * span read ahead past the first one fails, and so does the caller's own read of the span after it.
     */
    @Test
    void aFailedSpanReadLeavesNoStaleBytes() throws IOException {
        byte[] bytes = table();
        AtomicInteger failures = new AtomicInteger();
        MemFiles.Readable file = new MemFiles.Readable(bytes) {
            @Override
            public void read(long position, byte[] dst, int off, int len) throws IOException {
                if (position >= Readahead.MAX_SPAN / 2 && len > 8192 && failures.getAndDecrement() > 0) {
                    Arrays.fill(dst, off, off + len, (byte) 0x55);
                    throw new IOException("injected");
                }
                super.read(position, dst, off, len);
            }
        };
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters());
                InternalIterator it = reader.iterator(false)) {
            failures.set(2);
            it.seekToFirst();
            int n = 0;
            EngineIOException failed = null;
            try {
                for (; it.isValid(); it.next()) {
                    n++;
                }
            } catch (EngineIOException e) {
                failed = e;
            }
            assertTrue(failed != null, "the injected failure surfaced after " + n + " entries");
            n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                TableTest.assertAt(it, model.get(n));
                n++;
            }
            assertEquals(model.size(), n);
        }
    }

    @Test
    void aCachedScanReadsAheadOnceItIsSequential() throws IOException {
        CountingFile file = new CountingFile(table());
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(64 << 20),
                new EngineCounters())) {
            int blocks = reader.dataBlocks();
            int atOpen = file.reads;
            assertEquals(model.size(), scan(reader, true));
            int reads = file.reads - atOpen;
            assertTrue(reads < blocks / 8, reads + " reads for " + blocks + " blocks");
            // Every block is now cached: a second scan reads nothing.
            int before = file.reads;
            assertEquals(model.size(), scan(reader, true));
            assertEquals(before, file.reads);
        }
    }

    @Test
    void aSeekReadsOneBlock() throws IOException {
        CountingFile file = new CountingFile(table());
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters())) {
            for (boolean fillCache : new boolean[] {false, true}) {
                Entry e = model.get(model.size() / 2);
                int reads = file.reads;
                long bytes = file.bytes;
                try (InternalIterator it = reader.iterator(fillCache)) {
                    it.seek(e.key(), e.seq());
                    TableTest.assertAt(it, e);
                }
                assertEquals(reads + 1, file.reads);
                assertTrue(file.bytes - bytes < 8192, (file.bytes - bytes) + " bytes read for one block");
            }
        }
    }

    @Test
    void aScanThatSeeksBackStartsAgainSmall() throws IOException {
        CountingFile file = new CountingFile(table());
        try (TableReader reader = TableReader.open(file, Entries.PATH, 7, new BlockCache(0), new EngineCounters());
                InternalIterator it = reader.iterator(true)) {
            Entry first = model.get(0);
            it.seek(first.key(), first.seq());
            for (int i = 0; i < 5_000; i++) {
                TableTest.assertAt(it, model.get(i));
                it.next();
            }
            Entry back = model.get(model.size() / 2);
            int reads = file.reads;
            long bytes = file.bytes;
            it.seek(back.key(), back.seq());
            TableTest.assertAt(it, back);
            assertEquals(reads + 1, file.reads);
            assertTrue(file.bytes - bytes < 8192, (file.bytes - bytes) + " bytes read for one block");
            it.seekToLast();
            TableTest.assertAt(it, model.get(model.size() - 1));
            it.next();
            assertFalse(it.isValid());
        }
    }
}
