package io.bellows.ycsb;

import java.util.List;
import static io.bellows.ycsb.BellowsClientTest.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.Snapshot;
import io.bellows.engine.TraceOptions;
import io.bellows.engine.WriteBatch;
import io.bellows.engine.WriteOptions;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Properties;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A store whose compaction scheme keeps no key order (LSM_TRIE) refuses cursors with
 * UnsupportedOperationException. Any scheme may do so, when the cursor is made or while it moves, so this
 * drives the path through an engine that refuses at either point rather than through one scheme.
 */
class UnorderedStoreScanTest {
    @TempDir
    Path tmp;

    @Test
    void refusedCursorIsNotImplementedWithAClearMessageAndNoData() {
        try (Engine real = Engine.open(tmp, EngineOptions.defaults())) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            RecordStore store = new RecordStore(new RefusingCursors(real, 0), WriteOptions.defaults(), "LSM_TRIE",
                    new PrintStream(log, true, StandardCharsets.UTF_8));
            store.insert("t", "k1", record("f", "v"));

            Vector<HashMap<String, ByteIterator>> result = new Vector<>();
            Status status = store.scan("t", "k0", 10, null, result);
            assertEquals("NOT_IMPLEMENTED", status.getName());
            assertEquals("scan needs key order, which the compaction scheme LSM_TRIE does not keep (no key order)",
                    status.getDescription());
            assertTrue(result.isEmpty());
            store.scan("t", "k0", 10, null, result);
            assertEquals(1, log.toString(StandardCharsets.UTF_8).lines().count(), "the refusal is printed once: " + log);

            // Reads and writes do not need a cursor and still work.
            HashMap<String, ByteIterator> fields = new HashMap<>();
            assertEquals(Status.OK, store.read("t", "k1", null, fields));
            assertEquals("v", fields.get("f").toString());
        }
    }

    @Test
    void aWorkloadWithScansOnAStoreThatCannotScanFailsInit() throws DBException {
        Properties p = new Properties();
        p.setProperty("bellows.dir", tmp.resolve("trie").toString());
        p.setProperty("bellows.compaction", "lsm_trie");
        p.setProperty("scanproportion", "0.95");
        BellowsClient scanning = new BellowsClient();
        scanning.setProperties(p);
        DBException e = assertThrows(DBException.class, scanning::init);
        assertTrue(e.getMessage().startsWith("this workload scans (scanproportion=0.95) but the Bellows store in "),
                e.getMessage());
        assertTrue(e.getMessage().contains("its compaction scheme LSM_TRIE keeps no key order (cursors are not supported"
                + " by LSM_TRIE stores"), e.getMessage());
        assertEquals(0, SharedEngines.clients(tmp.resolve("trie")), "the refused client let go of the engine");

        p.setProperty("scanproportion", "0");
        BellowsClient reading = new BellowsClient();
        reading.setProperties(p);
        reading.init();
        reading.cleanup();

        p.setProperty("scanproportion", "lots");
        BellowsClient malformed = new BellowsClient();
        malformed.setProperties(p);
        assertEquals("scanproportion must be a number, not 'lots'",
                assertThrows(DBException.class, malformed::init).getMessage());
    }

    @Test
    void aWorkloadWithScansOnAnOrderedStoreStarts() throws DBException {
        Properties p = new Properties();
        p.setProperty("bellows.dir", tmp.resolve("leveled").toString());
        p.setProperty("scanproportion", "0.95");
        BellowsClient c = new BellowsClient();
        c.setProperties(p);
        c.init();
        c.cleanup();
    }

    @Test
    void cursorRefusingMidwayReturnsNoPartialResult() {
        try (Engine real = Engine.open(tmp, EngineOptions.defaults())) {
            RecordStore store = new RecordStore(new RefusingCursors(real, 2), WriteOptions.defaults(), "SOME_SCHEME",
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            for (int i = 0; i < 5; i++) {
                store.insert("t", "k" + i, record("f", "v" + i));
            }
            Vector<HashMap<String, ByteIterator>> result = new Vector<>();
            result.add(new HashMap<>());
            Status status = store.scan("t", "k0", 10, null, result);
            assertEquals("NOT_IMPLEMENTED", status.getName());
            assertEquals(1, result.size(), "the rows added before the refusal are removed, the caller's are kept");
        }
    }

    /** Delegates to a real engine; its cursors throw after {@code movesAllowed} moves (0: at creation). */
    private static final class RefusingCursors implements Engine {
        private final Engine real;
        private final int movesAllowed;

        RefusingCursors(Engine real, int movesAllowed) {
            this.real = real;
            this.movesAllowed = movesAllowed;
        }

        @Override
        public Cursor cursor(ReadOptions options) {
            if (movesAllowed == 0) {
                throw new UnsupportedOperationException("no key order");
            }
            Cursor c = real.cursor(options);
            return new Cursor() {
                private int moves;

                private void move() {
                    if (++moves > movesAllowed) {
                        throw new UnsupportedOperationException("no key order");
                    }
                }

                @Override
                public void seek(byte[] key) {
                    move();
                    c.seek(key);
                }

                @Override
                public void seekForPrev(byte[] key) {
                    move();
                    c.seekForPrev(key);
                }

                @Override
                public void seekToFirst() {
                    move();
                    c.seekToFirst();
                }

                @Override
                public void seekToLast() {
                    move();
                    c.seekToLast();
                }

                @Override
                public boolean isValid() {
                    return c.isValid();
                }

                @Override
                public void next() {
                    move();
                    c.next();
                }

                @Override
                public void prev() {
                    move();
                    c.prev();
                }

                @Override
                public byte[] key() {
                    return c.key();
                }

                @Override
                public byte[] value() {
                    return c.value();
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }

        @Override
        public void put(byte[] key, byte[] value, WriteOptions options) {
            real.put(key, value, options);
        }

        @Override
        public void delete(byte[] key, WriteOptions options) {
            real.delete(key, options);
        }

        @Override
        public void write(WriteBatch batch, WriteOptions options) {
            real.write(batch, options);
        }

        @Override
        public byte[] get(byte[] key, ReadOptions options) {
            return real.get(key, options);
        }

        @Override
        public int get(byte[] key, byte[] dst, int off, ReadOptions options) {
            return real.get(key, dst, off, options);
        }

        @Override
        public List<byte[]> multiGet(List<byte[]> keys, ReadOptions options) {
            return real.multiGet(keys, options);
        }

        @Override
        public Snapshot snapshot() {
            return real.snapshot();
        }

        @Override
        public void checkpoint(Path target) {
            real.checkpoint(target);
        }

        @Override
        public void startTrace(Path file, TraceOptions options) {
            real.startTrace(file, options);
        }

        @Override
        public void endTrace() {
            real.endTrace();
        }

        @Override
        public void flush() {
            real.flush();
        }

        @Override
        public void compactRange(byte[] from, byte[] to) {
            real.compactRange(from, to);
        }

        @Override
        public EngineStats stats() {
            return real.stats();
        }

        @Override
        public MeterBinder metrics(String name) {
            return real.metrics(name);
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
