package io.bellows.engine.offheap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.EngineStats;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.MemoryLayout;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import io.bellows.engine.WriteOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hunts use-after-release in the OFF_HEAP MemStore: readers keep cursors open across many in-memory
 * compactions and disk flushes, iterating and calling get() meanwhile, while a writer overwrites the
 * keys. With {@code bellows.offheap.checkedRelease} every chunk goes back to the allocator the moment
 * its last reference goes, so a read of a chunk released too early throws netty's
 * IllegalReferenceCountException instead of reading recycled bytes; every value also carries its key
 * and a checksum of itself, so a stale or foreign read is caught too. At the end, with every cursor
 * closed and the MemStore flushed, the pool holds no chunk; the leak extension checks after close.
 */
class UseAfterReleaseStressTest {
    private static final int KEYS = 1000;
    private static final int READERS = 3;
    private static final long RUN_MILLIS = 3000;

    @TempDir
    Path dir;

    @BeforeAll
    static void checkedRelease() {
        System.setProperty(OffHeapLayoutProvider.CHECKED_RELEASE, "true");
    }

    @AfterAll
    static void pooledAgain() {
        System.clearProperty(OffHeapLayoutProvider.CHECKED_RELEASE);
    }

    @ParameterizedTest
    @EnumSource(value = InMemoryCompaction.class, names = {"BASIC", "EAGER"})
    void cursorsSurviveCompactionsAndFlushes(InMemoryCompaction policy) throws Exception {
        long seed = TestSeeds.seed("UseAfterReleaseStressTest[" + policy + "]");
        // 64 KiB MemStore, 2 KiB active segments: an in-memory flush every few dozen writes, a disk
        // flush every few hundred. A generous limit: cursors pin chunks for a while.
        EngineOptions options = EngineConfigs.small(CompactionStyle.LEVELED, policy, MemoryLayout.OFF_HEAP)
                .activeSegmentFraction(0.03)
                .pipelineSegments(2)
                .offHeapLimit(64 << 20)
                .build();
        AtomicLongArray written = new AtomicLongArray(KEYS);
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        String ctx = policy + " seed=" + seed;
        try (Engine db = Engine.open(dir, options)) {
            for (int k = 0; k < KEYS; k++) {
                db.put(key(k), value(k, 0, 0));
            }
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> {
                Random rnd = new Random(seed);
                long counter = 0;
                try {
                    while (!stop.get()) {
                        int k = rnd.nextInt(KEYS);
                        counter++;
                        db.put(key(k), value(k, counter, rnd.nextInt(120)), WriteOptions.async());
                        written.set(k, counter);
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }, "writer"));
            // EAGER may keep the MemStore below its flush size by dropping versions: flush anyway.
            threads.add(new Thread(() -> {
                try {
                    while (!stop.get()) {
                        Thread.sleep(150);
                        db.flush();
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }, "flusher"));
            for (int r = 0; r < READERS; r++) {
                long readerSeed = seed + 1 + r;
                threads.add(new Thread(() -> {
                    try {
                        read(db, new Random(readerSeed), written, stop);
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }, "reader-" + r));
            }
            threads.forEach(Thread::start);
            Thread.sleep(RUN_MILLIS);
            stop.set(true);
            for (Thread t : threads) {
                t.join(30_000);
            }
            if (!errors.isEmpty()) {
                Throwable first = errors.peek();
                AssertionError e = new AssertionError(ctx + ": " + errors.size() + " failure(s), first: " + first, first);
                errors.stream().skip(1).limit(3).forEach(e::addSuppressed);
                throw e;
            }
            EngineStats s = db.stats();
            EngineStats.MemStore m = s.memstore();
            System.out.println(ctx + ": " + m.inMemoryFlushes() + " in-memory flushes, " + m.inMemoryFlattens()
                    + " flattens, " + m.inMemoryMerges() + " merges, " + m.inMemoryCompactions() + " compactions, "
                    + s.background().flushes() + " disk flushes");
            assertTrue(m.inMemoryFlushes() > 50, ctx + ": in-memory flushes " + m.inMemoryFlushes());
            assertTrue(m.inMemoryMerges() + m.inMemoryCompactions() > 10, ctx + ": merges and compactions");
            assertTrue(s.background().flushes() > 3, ctx + ": disk flushes " + s.background().flushes());
            for (int k = 0; k < KEYS; k++) {
                byte[] v = db.get(key(k));
                assertArrayEquals(key(k), keyOf(v), ctx);
                assertEquals(written.get(k), counterOf(v), ctx + ": key " + k + " has its last value");
            }
            // Every cursor is closed: once the MemStore is flushed no chunk is in use.
            db.flush();
            assertEquals(0, db.stats().memstore().chunksInUse(),
                    ctx + ": chunks in use with no cursor open and nothing in memory");
        }
    }

    /**
     * One reader: a cursor kept open while it steps through the keys slowly (across many compactions
     * and flushes), with get()s in between. A cursor sees the state at its creation, so each key's
     * counter is at least what the writer had finished before the cursor was made.
     */
    private static void read(Engine db, Random rnd, AtomicLongArray written, AtomicBoolean stop)
            throws InterruptedException {
        long[] floor = new long[KEYS];
        while (!stop.get()) {
            for (int k = 0; k < KEYS; k++) {
                floor[k] = written.get(k);
            }
            try (Cursor c = db.cursor(ReadOptions.defaults())) {
                int seen = 0;
                int prev = -1;
                for (c.seekToFirst(); c.isValid(); c.next()) {
                    byte[] v = c.value();
                    int k = index(c.key());
                    assertTrue(k > prev, "keys in order: " + k + " after " + prev);
                    assertArrayEquals(c.key(), keyOf(v), "the value belongs to its key");
                    assertTrue(counterOf(v) >= floor[k], "key " + k + " went back: " + counterOf(v) + " < " + floor[k]);
                    prev = k;
                    seen++;
                    if (rnd.nextInt(16) == 0) {
                        int g = rnd.nextInt(KEYS);
                        long before = written.get(g);
                        byte[] gv = db.get(key(g));
                        assertArrayEquals(key(g), keyOf(gv), "get returns the key's own value");
                        assertTrue(counterOf(gv) >= before, "get of key " + g + " went back");
                    }
                    if (rnd.nextInt(32) == 0) {
                        Thread.sleep(1);
                    }
                    if (stop.get() && rnd.nextInt(8) == 0) {
                        break;
                    }
                }
                assertTrue(stop.get() || seen == KEYS, "a full pass sees every key: " + seen);
            }
        }
    }

    static byte[] key(int k) {
        return String.format("key%06d", k).getBytes();
    }

    static int index(byte[] key) {
        return Integer.parseInt(new String(key, 3, key.length - 3));
    }

    /** key length, key, counter, filler, then a checksum of all before it. */
    static byte[] value(int k, long counter, int filler) {
        byte[] key = key(k);
        ByteBuffer b = ByteBuffer.allocate(4 + key.length + 8 + filler + 8);
        b.putInt(key.length).put(key).putLong(counter);
        for (int i = 0; i < filler; i++) {
            b.put((byte) (counter * 31 + i));
        }
        b.putLong(checksum(b.array(), b.position()));
        return b.array();
    }

    private static long checksum(byte[] a, int len) {
        long h = 1125899906842597L;
        for (int i = 0; i < len; i++) {
            h = 31 * h + a[i];
        }
        return h;
    }

    /** The key a value was written for; fails on a damaged value. */
    static byte[] keyOf(byte[] v) {
        assertTrue(v != null && v.length >= 24, "a value of the right shape");
        assertEquals(checksum(v, v.length - 8), ByteBuffer.wrap(v, v.length - 8, 8).getLong(), "value checksum");
        int len = ByteBuffer.wrap(v).getInt();
        byte[] key = new byte[len];
        System.arraycopy(v, 4, key, 0, len);
        return key;
    }

    static long counterOf(byte[] v) {
        int len = ByteBuffer.wrap(v).getInt();
        return ByteBuffer.wrap(v, 4 + len, 8).getLong();
    }
}
