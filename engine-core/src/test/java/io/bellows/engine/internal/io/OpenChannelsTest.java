package io.bellows.engine.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bellows.engine.CompactionStyle;
import io.bellows.engine.Cursor;
import io.bellows.engine.Engine;
import io.bellows.engine.EngineConfigs;
import io.bellows.engine.EngineOptions;
import io.bellows.engine.InMemoryCompaction;
import io.bellows.engine.ReadOptions;
import io.bellows.engine.TestSeeds;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on open table files: past it the least recently read channels are parked (their file
 * closed) and reopened by their next read, so a store of more tables than the process may open files
 * still reads every value, concurrent readers included.
 */
class OpenChannelsTest {
    @TempDir
    Path dir;

    private static void readFully(ReopeningChannel c, byte[] dst) throws Exception {
        c.read(ch -> {
            ByteBuffer bb = ByteBuffer.wrap(dst);
            while (bb.hasRemaining()) {
                ch.read(bb, bb.position());
            }
            return null;
        });
    }

    /** Descriptors the process has open, or -1 where the JVM does not say. */
    private static long openDescriptors() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getOpenFileDescriptorCount();
        }
        return -1;
    }

    @Test
    void channelsOverTheBoundAreParkedAndReopenedByTheirNextRead() throws Exception {
        long seed = TestSeeds.seed("OpenChannelsTest.parking");
        OpenChannels budget = new OpenChannels(3);
        List<ReopeningChannel> channels = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        Random rnd = new Random(seed);
        for (int i = 0; i < 10; i++) {
            byte[] b = new byte[100 + rnd.nextInt(5000)];
            rnd.nextBytes(b);
            Path p = dir.resolve("t" + i);
            Files.write(p, b);
            contents.add(b);
            channels.add(new ReopeningChannel(budget, p, StandardOpenOption.READ));
            assertTrue(budget.open() <= 3, "after opening " + (i + 1) + ": " + budget.open() + " open");
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Random r = new Random(seed + t);
            Thread th = new Thread(() -> {
                try {
                    for (int n = 0; n < 2000; n++) {
                        int i = r.nextInt(channels.size());
                        byte[] got = new byte[contents.get(i).length];
                        readFully(channels.get(i), got);
                        assertArrayEquals(contents.get(i), got, "file " + i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            readers.add(th);
            th.start();
        }
        for (Thread th : readers) {
            th.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed=" + seed, failure.get());
        }
        assertTrue(budget.open() <= 3, budget.open() + " open");
        for (ReopeningChannel c : channels) {
            c.close();
        }
        assertEquals(0, budget.open(), "closed channels leave the count");
    }

    /** An engine whose tables outnumber the files the process may keep open reads them all, from threads. */
    @Test
    void anEngineWithMoreTablesThanTheBoundReadsEveryValue() throws Exception {
        long seed = TestSeeds.seed("OpenChannelsTest.engine");
        Random rnd = new Random(seed);
        int saved = OpenChannels.PROCESS.limit();
        OpenChannels.PROCESS.limit(4);
        long fdsBefore = openDescriptors();
        try {
            // L0 compaction waits for 1,000 tables, so every flush stays a table of its own.
            EngineOptions o = EngineConfigs.small(CompactionStyle.LEVELED, InMemoryCompaction.NONE)
                    .l0Triggers(1000, 1000, 1000).build();
            TreeMap<String, byte[]> model = new TreeMap<>();
            try (Engine db = Engine.open(dir.resolve("db"), o)) {
                for (int table = 0; table < 40; table++) {
                    for (int i = 0; i < 20; i++) {
                        String k = String.format("key%05d", rnd.nextInt(2000));
                        byte[] v = new byte[1 + rnd.nextInt(100)];
                        rnd.nextBytes(v);
                        db.put(k.getBytes(StandardCharsets.UTF_8), v);
                        model.put(k, v);
                    }
                    db.flush();
                }
                assertTrue(db.stats().levels().get(0).tables() >= 40, db.stats().levels().toString());
                AtomicReference<Throwable> failure = new AtomicReference<>();
                List<Thread> readers = new ArrayList<>();
                List<String> keys = new ArrayList<>(model.keySet());
                for (int t = 0; t < 3; t++) {
                    Random r = new Random(seed + t);
                    Thread th = new Thread(() -> {
                        try {
                            for (int n = 0; n < 3000; n++) {
                                String k = keys.get(r.nextInt(keys.size()));
                                assertArrayEquals(model.get(k), db.get(k.getBytes(StandardCharsets.UTF_8)), k);
                            }
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    readers.add(th);
                    th.start();
                }
                int scanned = 0;
                try (Cursor c = db.cursor(ReadOptions.defaults())) {
                    for (c.seekToFirst(); c.isValid(); c.next()) {
                        assertArrayEquals(model.get(new String(c.key(), StandardCharsets.UTF_8)), c.value());
                        scanned++;
                    }
                }
                for (Thread th : readers) {
                    th.join();
                }
                if (failure.get() != null) {
                    throw new AssertionError("seed=" + seed, failure.get());
                }
                assertEquals(model.size(), scanned, "seed=" + seed);
                assertTrue(OpenChannels.PROCESS.open() <= 4, OpenChannels.PROCESS.open() + " table files open");
                // The process's own count: the 40 tables hold at most 4 descriptors, beside the engine's
                // WAL, manifest, lock and directory handles.
                long fds = openDescriptors() - fdsBefore;
                System.out.println("descriptors opened by an engine of " + db.stats().levels().get(0).tables()
                        + " tables under a bound of 4: " + fds);
                assertTrue(fdsBefore < 0 || fds <= 4 + 12, fds + " descriptors opened");
            }
        } finally {
            OpenChannels.PROCESS.limit(saved);
        }
    }
}
