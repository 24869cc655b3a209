package io.bellows.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writers, readers and snapshot readers at once, while flushes and compactions run. Writers update
 * pairs of keys in one batch with the same counter, so a reader at any snapshot must see both keys of
 * a pair equal (atomicity and snapshot isolation) and a key's counter must never go backwards for a
 * plain reader (no lost or reordered writes).
 */
class ConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int PAIRS_PER_WRITER = 200;
    private static final long RUN_MILLIS = 4000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}/{1}/{2}")
    @MethodSource("io.bellows.engine.EngineConfigs#all")
    void readersSeeAtomicMonotonicState(CompactionStyle style, InMemoryCompaction policy, MemoryLayout layout) throws Exception {
        long seed = TestSeeds.seed("ConcurrencyTest[" + style + "/" + policy + "]");
        EngineOptions options = EngineConfigs.small(style, policy, layout).backgroundThreads(3).build();
        AtomicLongArray written = new AtomicLongArray(WRITERS * PAIRS_PER_WRITER);
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (Engine db = Engine.open(dir, options)) {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    Random rnd = new Random(seed + writer);
                    long counter = 0;
                    while (!stop.get()) {
                        int pair = writer * PAIRS_PER_WRITER + rnd.nextInt(PAIRS_PER_WRITER);
                        counter++;
                        WriteBatch b = new WriteBatch();
                        byte[] v = value(counter, rnd.nextInt(200));
                        b.put(key(pair, 'a'), v).put(key(pair, 'b'), v);
                        db.write(b, rnd.nextInt(50) == 0 ? WriteOptions.sync() : WriteOptions.async());
                        written.set(pair, counter);
                    }
                }));
            }
            for (int r = 0; r < 2; r++) {
                threads.add(new Thread(() -> {
                    Random rnd = new Random(seed ^ 77);
                    long[] seen = new long[WRITERS * PAIRS_PER_WRITER];
                    while (!stop.get()) {
                        int pair = rnd.nextInt(seen.length);
                        long floor = written.get(pair);
                        byte[] v = db.get(key(pair, 'a'));
                        long c = v == null ? 0 : counter(v);
                        assertTrue(c >= seen[pair] && c >= floor,
                                "key went backwards: pair " + pair + " " + c + " < " + Math.max(seen[pair], floor));
                        seen[pair] = c;
                    }
                }));
            }
            if (style == CompactionStyle.LSM_TRIE) {
                // No cursors (no key order on disk): both halves of random pairs read at one snapshot instead.
                ModelConformanceTest.assertNoCursor(db, ReadOptions.defaults(), "seed=" + seed);
                threads.add(new Thread(() -> {
                    Random rnd = new Random(seed ^ 99);
                    while (!stop.get()) {
                        try (Snapshot s = db.snapshot()) {
                            for (int i = 0; i < 50; i++) {
                                int pair = rnd.nextInt(WRITERS * PAIRS_PER_WRITER);
                                byte[] a = db.get(key(pair, 'a'), ReadOptions.at(s));
                                byte[] b = db.get(key(pair, 'b'), ReadOptions.at(s));
                                assertEquals(a == null, b == null, "pair half missing at snapshot " + s.sequence());
                                if (a != null) {
                                    assertEquals(counter(a), counter(b), "torn pair at snapshot " + s.sequence());
                                }
                            }
                        }
                    }
                }));
            }
            threads.add(new Thread(() -> {
                while (!stop.get() && style != CompactionStyle.LSM_TRIE) {
                    try (Snapshot s = db.snapshot(); Cursor c = db.cursor(ReadOptions.at(s))) {
                        byte[] prevKey = null;
                        byte[] prevVal = null;
                        for (c.seekToFirst(); c.isValid(); c.next()) {
                            byte[] k = c.key();
                            if (k[k.length - 1] == 'b') {
                                assertTrue(prevKey != null && prevKey[prevKey.length - 1] == 'a',
                                        "pair half missing at snapshot " + s.sequence());
                                assertEquals(counter(prevVal), counter(c.value()), "torn pair at snapshot " + s.sequence());
                            }
                            prevKey = k;
                            prevVal = c.value();
                        }
                    }
                }
            }));
            for (Thread t : threads) {
                t.setUncaughtExceptionHandler((th, e) -> errors.add(e));
                t.start();
            }
            Thread.sleep(RUN_MILLIS);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (!errors.isEmpty()) {
                AssertionError e = new AssertionError("seed=" + seed + ": " + errors.size() + " thread(s) failed");
                errors.forEach(e::addSuppressed);
                throw e;
            }
            for (int pair = 0; pair < written.length(); pair++) {
                long c = written.get(pair);
                byte[] v = db.get(key(pair, 'a'));
                assertEquals(c, v == null ? 0 : counter(v), "seed=" + seed + " final value of pair " + pair);
            }
            assertTrue(db.stats().background().flushes() > 0, "the run must have flushed");
        }
    }

    private static byte[] key(int pair, char half) {
        return String.format("pair%06d%c", pair, half).getBytes();
    }

    private static byte[] value(long counter, int padding) {
        return ByteBuffer.allocate(8 + padding).putLong(counter).array();
    }

    private static long counter(byte[] v) {
        return ByteBuffer.wrap(v).getLong();
    }
}
