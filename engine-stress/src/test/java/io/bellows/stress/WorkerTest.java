package io.bellows.stress;

import java.util.ArrayList;
import java.util.List;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child's running checks: a worker on an engine that hides one key from its gets or its cursors
 * must report it; on the plain engine it must report nothing.
 */
class WorkerTest {
    private static final byte[] HIDDEN = KeySpace.single(3);

    @TempDir
    Path dir;

    private final KeySpace ks = new KeySpace(16, 4, 3);

    /** Puts, gets and scans only; one thread; SYNC and ASYNC writes. */
    private static final Workload LOAD = new Workload(1, 4, 1, 2, 3, 2, 0.5, 0, 0, 1, 1, 0, 64, 0.1, 1.0);

    private String runUntilFailure(boolean hideFromGets, boolean hideFromCursors) throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        try (Engine real = Engine.open(dir.resolve("db"), EngineOptions.defaults());
                OpLog log = new OpLog(dir.resolve("logs").resolve(StressChild.logName(0)))) {
            Engine db = new Hiding(real, hideFromGets, hideFromCursors);
            AtomicReference<String> failure = new AtomicReference<>();
            Worker[] w = new Worker[1];
            w[0] = new Worker(db, ks, LOAD, 0, Counters.base(1, 0), log, 17, (message, cause) -> {
                failure.compareAndSet(null, message);
                w[0].stop();
            });
            Thread t = new Thread(w[0]);
            t.start();
            t.join(1_500);
            w[0].stop();
            t.join();
            return failure.get();
        }
    }

    @Test
    void correctEngineRaisesNothing() throws Exception {
        assertNull(runUntilFailure(false, false));
    }

    @Test
    void staleGetIsReported() throws Exception {
        String f = runUntilFailure(true, false);
        assertNotNull(f);
        assertTrue(f.startsWith("get s:3 by its only writer"), f);
    }

    @Test
    void keySkippedByACursorIsReported() throws Exception {
        String f = runUntilFailure(false, true);
        assertNotNull(f);
        assertTrue(f.startsWith("cursor skipped s:3"), f);
    }

    /** An engine that loses {@link #HIDDEN} from gets (it reads as absent) or from cursors. */
    private record Hiding(Engine db, boolean gets, boolean cursors) implements Engine {
        @Override
        public void put(byte[] key, byte[] value, WriteOptions options) {
            db.put(key, value, options);
        }

        @Override
        public void delete(byte[] key, WriteOptions options) {
            db.delete(key, options);
        }

        @Override
        public void write(WriteBatch batch, WriteOptions options) {
            db.write(batch, options);
        }

        @Override
        public byte[] get(byte[] key, ReadOptions options) {
            return gets && Arrays.equals(key, HIDDEN) ? null : db.get(key, options);
        }

        @Override
        public int get(byte[] key, byte[] dst, int off, ReadOptions options) {
            return db.get(key, dst, off, options);
        }

        @Override
        public List<byte[]> multiGet(List<byte[]> keys, ReadOptions options) {
            List<byte[]> out = new ArrayList<>(keys.size());
            for (byte[] k : keys) {
                out.add(get(k, options));
            }
            return out;
        }

        @Override
        public Snapshot snapshot() {
            return db.snapshot();
        }

        @Override
        public void checkpoint(Path target) {
            db.checkpoint(target);
        }

        @Override
        public void startTrace(Path file, TraceOptions options) {
            db.startTrace(file, options);
        }

        @Override
        public void endTrace() {
            db.endTrace();
        }

        @Override
        public Cursor cursor(ReadOptions options) {
            Cursor c = db.cursor(options);
            return !cursors ? c : new Cursor() {
                private void skip() {
                    if (c.isValid() && Arrays.equals(c.key(), HIDDEN)) {
                        c.next();
                    }
                }

                private void skipBack() {
                    if (c.isValid() && Arrays.equals(c.key(), HIDDEN)) {
                        c.prev();
                    }
                }

                @Override
                public void seek(byte[] key) {
                    c.seek(key);
                    skip();
                }

                @Override
                public void seekForPrev(byte[] key) {
                    c.seekForPrev(key);
                    skipBack();
                }

                @Override
                public void seekToFirst() {
                    c.seekToFirst();
                    skip();
                }

                @Override
                public void seekToLast() {
                    c.seekToLast();
                    skipBack();
                }

                @Override
                public boolean isValid() {
                    return c.isValid();
                }

                @Override
                public void next() {
                    c.next();
                    skip();
                }

                @Override
                public void prev() {
                    c.prev();
                    skipBack();
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
        public void flush() {
            db.flush();
        }

        @Override
        public void compactRange(byte[] from, byte[] to) {
            db.compactRange(from, to);
        }

        @Override
        public EngineStats stats() {
            return db.stats();
        }

        @Override
        public MeterBinder metrics(String name) {
            return db.metrics(name);
        }

        @Override
        public void close() {
            db.close();
        }
    }
}
